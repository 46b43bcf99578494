"""The roles a reviewer can have; light enough for the command line to import at start-up."""

from __future__ import annotations

from typing import Literal, get_args

# adjudicator: settles disagreements between people (an adjudicated verdict) and records the queue's decision
Role = Literal["judge", "participant", "author", "adjudicator"]
ROLES: tuple[str, ...] = get_args(Role)
