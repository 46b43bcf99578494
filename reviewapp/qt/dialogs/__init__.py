"""Dialogs opened from the main window."""
