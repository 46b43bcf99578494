"""The one error type of committing: its message says what went wrong and what to do, in plain words.

What to do depends on where the user is: the command line names a flag (`--repo OWNER/NAME`), the commit dialog
names a field or a button. `str(error)` is the command line's sentence; `for_dialog()` the dialog's.
"""

from __future__ import annotations


class CommitError(Exception):
    """Committing cannot go ahead as asked; nothing beyond what the message says was committed or sent."""

    def __init__(self, message: str, *, cli_hint: str = "", dialog_hint: str = "") -> None:
        super().__init__(f"{message}; {cli_hint}" if cli_hint else message)
        self.plain = message
        self.cli_hint = cli_hint
        self.dialog_hint = dialog_hint

    def for_dialog(self) -> str:
        text = self.plain if self.cli_hint else str(self)
        if self.dialog_hint:
            text = f"{text}. {self.dialog_hint[:1].upper()}{self.dialog_hint[1:]}."
        return text[:1].upper() + text[1:]


class NetworkUnavailable(CommitError):
    """The Hub (or a git remote) could not be reached: offline, DNS, refused, timed out."""
