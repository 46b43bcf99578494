"""reviewapp: review a coding agent's reproduction logbook claim by claim."""

__version__ = "0.1.0"
