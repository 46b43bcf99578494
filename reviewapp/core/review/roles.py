"""The roles a reviewer can have; light enough for the command line to import at start-up."""

from __future__ import annotations

from typing import Literal, get_args

Role = Literal["judge", "participant", "author"]
ROLES: tuple[str, ...] = get_args(Role)
