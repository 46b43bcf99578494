"""The judges' queue window: many logbooks, where you stand on each, scoring and flagging."""
