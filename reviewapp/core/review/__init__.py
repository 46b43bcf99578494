"""The review: annotation records, their store and replay, undo history, identity."""
