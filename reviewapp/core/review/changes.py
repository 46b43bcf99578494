"""What one command changed: the record a command hands back, and what models update from.

A window that shows claims needs to know which rows to redraw after an action; re-deriving every claim after each
save is what made saving slow. A `ChangeRecord` names the command, the logbook, the claim keys and the record ids
it touched, and whether claims came or went (add, split, merge, or undoing one), so that a list can update the
rows named and rebuild only when the set of claims changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

Direction = Literal["do", "undo", "redo", "reload"]

# Record kinds whose records add or remove claims: a change to one of them changes the set of rows.
RESTRUCTURING_KINDS = frozenset({"claim_add", "claim_split", "claim_merge"})


@dataclass(frozen=True)
class ChangeRecord:
    kind: str  # the command's name: "set_verdict", "add_note", "split_claim", ... ("reload" after re-reading)
    label: str  # "verdict on claim 3", as the Undo menu shows it
    logbook_id: str
    claim_keys: tuple[str, ...] = ()  # claims whose verdicts, marks or notes changed
    record_ids: tuple[str, ...] = ()  # records written by this change
    direction: Direction = "do"
    restructures: bool = False  # claims were added, split or merged (or such a change was undone)
    record_kinds: tuple[str, ...] = ()  # kinds of the records written ("verdict", "logbook_judge_match", ...)

    @classmethod
    def reload(cls, logbook_id: str) -> ChangeRecord:
        """Everything may have changed (the files were read again)."""
        return cls("reload", "reload", logbook_id, direction="reload", restructures=True)

    @property
    def everything(self) -> bool:
        return self.direction == "reload"

    def touches(self, *record_kinds: str) -> bool:
        """Whether records of one of `record_kinds` may have changed: written, retracted or undone by this change,
        or anything at all (a reload, claims that came or went)."""
        return self.everything or self.restructures or any(kind in self.record_kinds for kind in record_kinds)


def claim_keys_of(kind: str, claim: str | None, payload: BaseModel | None) -> list[str]:
    """The claims one record is about: its target's claim, and the claims a split, merge or addition makes."""
    keys = [claim] if claim else []
    if payload is None:
        return keys
    if kind == "claim_split":
        keys.extend(str(getattr(part, "key", "")) for part in getattr(payload, "parts", ()))
    elif kind == "claim_merge":
        keys.extend(str(key) for key in getattr(payload, "claims", ()))
        keys.append(str(getattr(payload, "key", "")))
    elif kind == "claim_add":
        keys.append(str(getattr(payload, "key", "")))
    return [k for k in keys if k]


def unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))
