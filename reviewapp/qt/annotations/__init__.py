"""The reviewer's side of the window: verdicts, notes, claim corrections, undo/redo, export, pairs and commit."""
