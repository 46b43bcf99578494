"""The trace pane: the timeline and excerpt panels and their ties to the rest of the window."""
