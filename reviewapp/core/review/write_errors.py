"""Why a record was not written: what a command reports to the window and the command line.

Apart from the store, so that code which must not read review files itself (the queue, the paper view, the
command line) can still tell its user why a save failed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from reviewapp.core.review.secret_scan import SecretFinding, known_secrets, scan_fields

if TYPE_CHECKING:
    from reviewapp.core.review.records import RecordBase


class StoreError(Exception):
    """Annotations cannot be written (disk full, folder vanished, a symlink where a file belongs)."""


class SecretInRecord(StoreError):
    """The record's text holds something that looks like a secret; nothing was written."""

    def __init__(self, findings: list[tuple[str, SecretFinding]]) -> None:
        self.findings = findings
        described = "; ".join(f"the {name} contains {finding}" for name, finding in findings)
        super().__init__(
            f"{described}. Remove it and try again: annotation files are append-only and cannot forget a secret, "
            "so nothing was saved."
        )


def check_secrets(record: RecordBase, known: list[str] | None = None) -> None:
    """Raise SecretInRecord when any text in the record looks like a token, key or password (`known`: the user's
    own tokens, looked up when not given)."""
    findings = scan_fields(
        list(_strings(record.model_dump(mode="json", by_alias=True))), known if known is not None else known_secrets()
    )
    if findings:
        raise SecretInRecord(findings)


def _strings(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a dumped record with a readable name of where it is ("rationale", "target.claim")."""
    if isinstance(value, str):
        yield path.removeprefix("payload.") or "record", value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")
