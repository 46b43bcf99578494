"""Names inside a reviews folder that more than one layer needs: pairs writes these files and commit commits them."""

from __future__ import annotations

PAIR_RESULTS_DIR = "pairs"  # reviews/pairs/<set>-<annotator>.csv and its protocol
PAIR_PROTOCOL_SUFFIX = ".protocol.json"
