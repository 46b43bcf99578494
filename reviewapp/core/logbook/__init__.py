"""Reading a Trackio logbook: pages, cells, claims, the agent's verdicts, traces."""
