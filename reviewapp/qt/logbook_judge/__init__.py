"""The Logbook Judge in the window: its evidence in the claim header, the disagreement list, re-matching by hand,
importing verdicts and the agreement view."""
