"""The review feature: verdicts, notes, claim corrections, undo/redo, export; its tools open pairs and commit."""
