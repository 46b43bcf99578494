"""Undo and redo for annotation actions, without Qt, over append-only files.

Every action changes one or more annotation chains from one content to another ("no verdict" -> "partial",
"note A" -> "note B", "note B" -> deleted). Doing, undoing and redoing all append a record that supersedes
the chain's head: undo writes the earlier content again (or a retraction when there was none), redo writes the
later content again. Nothing in the files is ever rewritten, so undo survives a crash like any other action.

Every mutation is a named `Command` (`kind` "set_verdict", "add_note", "split_claim", ...), executed here by the
window and the command line alike. Each execute, undo and redo hands its listeners a `ChangeRecord` saying which
claims and records changed, so that a window updates those rows instead of rebuilding everything.

The GUI binds its undo/redo actions to `History`: `undo_label`/`redo_label` for menu text, `can_undo`/
`can_redo` for enabling, `listeners` to hear about changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel

from reviewapp.core.review.changes import RESTRUCTURING_KINDS, ChangeRecord, Direction, claim_keys_of, unique
from reviewapp.core.review.records import RecordBase, Target


@dataclass(frozen=True)
class RecordDraft:
    """The content of an annotation, without the bookkeeping (id, time, author, revision)."""

    kind: str
    target: Target
    payload: BaseModel

    @classmethod
    def of(cls, record: RecordBase) -> RecordDraft:
        return cls(record.kind, record.target, record.payload)


class Transitions(Protocol):
    """What History needs from the logbook review: append a chain's next record, and find a chain's head."""

    def transition(self, head: str | None, draft: RecordDraft | None) -> str | None:
        """Append a record replacing `head` (None: start a chain) with `draft` (None: retract); return the new head."""
        ...

    def head_id(self, record_id: str) -> str | None:
        """The id of the current head of the chain `record_id` belongs to."""
        ...

    def chain_id(self, record_id: str) -> str | None:
        """A stable id of the chain `record_id` belongs to (its first record)."""
        ...


@dataclass
class Change:
    before: RecordDraft | None  # None: the annotation did not exist
    after: RecordDraft | None  # None: the annotation is deleted
    head: str | None = None  # a record of the chain (before execute: its head, None for a new chain)


@dataclass
class Command:
    label: str  # "verdict on claim 3"; shown as "Undo verdict on claim 3"
    changes: list[Change] = field(default_factory=list)
    kind: str = "change"  # the command's name: "set_verdict", "add_note", "split_claim", ...
    undoable: bool = True  # False: done, reported, but not offered by Undo (nothing to go back to)

    @property
    def head(self) -> str | None:
        """The record the (last) change produced: the new verdict, note, ..."""
        return self.changes[-1].head if self.changes else None


class HistoryConflict(Exception):
    """The annotation was changed elsewhere (another window, the command line) since this action; not undone."""


class History:
    def __init__(self, transitions: Transitions, limit: int = 1000, *, logbook_id: str = "") -> None:
        self._transitions = transitions
        self.logbook_id = logbook_id  # named in every change record
        self._limit = limit
        self._undo: list[Command] = []
        self._redo: list[Command] = []
        # chain id -> the head this history last wrote; several commands can share a chain (two overrides of
        # one claim), so a command's own record is not necessarily the head when its turn to be undone comes
        self._written: dict[str, str] = {}
        self.listeners: list[Callable[[ChangeRecord], None]] = []
        self.last_change: ChangeRecord | None = None

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_label(self) -> str | None:
        return f"Undo {self._undo[-1].label}" if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return f"Redo {self._redo[-1].label}" if self._redo else None

    def execute(self, command: Command) -> Command:
        """Do the command (each change's `head` must be the chain's current head, or None for a new chain).
        What changed is in `last_change` afterwards, and told to every listener."""
        done: list[Change] = []
        try:
            for change in command.changes:
                self._apply(change, change.head, change.after)
                done.append(change)
        finally:
            if done:  # even a partly done command can be undone as far as it went
                performed = Command(command.label, done, command.kind, command.undoable)
                if command.undoable:
                    self._undo.append(performed)
                    del self._undo[: -self._limit]
                    self._redo.clear()
                self._notify(performed, "do")
        return command

    def undo(self) -> Command | None:
        """Undo the last command; returns it (None when there is nothing to undo). Raises HistoryConflict."""
        if not self._undo:
            return None
        command = self._undo[-1]
        heads = self._check(command)
        for change in reversed(command.changes):
            self._apply(change, heads[id(change)], change.before)
        self._redo.append(self._undo.pop())
        self._notify(command, "undo")
        return command

    def redo(self) -> Command | None:
        if not self._redo:
            return None
        command = self._redo[-1]
        heads = self._check(command)
        for change in command.changes:
            self._apply(change, heads[id(change)], change.after)
        self._undo.append(self._redo.pop())
        self._notify(command, "redo")
        return command

    def clear(self) -> None:
        """Forget what can be undone (the files were read again, or changed elsewhere)."""
        self._undo.clear()
        self._redo.clear()
        self._written.clear()
        self._notify(None, "reload")

    def _apply(self, change: Change, head: str | None, draft: RecordDraft | None) -> None:
        written = self._transitions.transition(head, draft)
        if written is not None:
            change.head = written
            chain = self._transitions.chain_id(written)
            if chain is not None:
                self._written[chain] = written

    def _check(self, command: Command) -> dict[int, str | None]:
        """The current head of each change's chain; HistoryConflict when someone else wrote to it since."""
        heads: dict[int, str | None] = {}
        for change in command.changes:
            if change.head is None:
                heads[id(change)] = None
                continue
            chain = self._transitions.chain_id(change.head)
            head = self._transitions.head_id(change.head)
            if chain is None or head != self._written.get(chain):
                self.clear()
                raise HistoryConflict(
                    f"cannot undo or redo {command.label}: it was changed elsewhere since (another window or "
                    "the command line); reload to see the current state"
                )
            heads[id(change)] = head
        return heads

    def change_record(self, command: Command, direction: Direction) -> ChangeRecord:
        keys: list[str] = []
        kinds: list[str] = []
        for change in command.changes:
            for draft in (change.before, change.after):
                if draft is not None:
                    keys.extend(claim_keys_of(draft.kind, draft.target.claim, draft.payload))
                    kinds.append(draft.kind)
        restructures = any(kind in RESTRUCTURING_KINDS for kind in kinds)
        heads = unique(c.head for c in command.changes if c.head is not None)
        return ChangeRecord(
            command.kind, command.label, self.logbook_id, unique(keys), heads, direction, restructures, unique(kinds)
        )

    def _notify(self, command: Command | None, direction: Direction) -> None:
        record = self.change_record(command, direction) if command is not None else ChangeRecord.reload(self.logbook_id)
        self.last_change = record
        for listener in list(self.listeners):
            listener(record)
