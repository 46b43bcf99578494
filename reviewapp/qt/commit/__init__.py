"""Committing reviews from the window: the commit dialog, what changed since the last commit, where it goes."""
