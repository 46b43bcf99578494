"""Agent traces: excerpts tied to claims."""
