"""The Hub refused a private or gated source: offer huggingface_hub's own login, then try again.

reviewapp never asks for a token in a field of its own (a token typed here would have to be kept somewhere): the
login is huggingface_hub's (`hf auth login` in a terminal, or HF_TOKEN), which stores the token where every Hub
tool finds it. Try Again reopens the source, and picks the new login up.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget

from reviewapp.qt.plain import PlainLabel

LOGIN_COMMAND = "hf auth login"
HOW = (
    "Private and gated Spaces open with your Hugging Face login. Run the command below in a terminal: it is "
    "huggingface_hub's own login, which keeps the token where every Hub tool finds it (or set HF_TOKEN before "
    "starting reviewapp). reviewapp never asks for the token itself. Then choose Try Again. A gated Space also "
    "needs access granted to your account on its page."
)


class HubLoginDialog(QDialog):
    retry_requested = Signal(str)  # the SOURCE to open again

    def __init__(self, source: str, message: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.setWindowTitle("Log In to Hugging Face")
        self.setMinimumWidth(560)
        self.message = PlainLabel(message)
        self.message.setWordWrap(True)
        self.message.setObjectName("disagreement")
        how = PlainLabel(HOW)
        how.setWordWrap(True)
        how.setObjectName("muted")
        self.command = QLineEdit(LOGIN_COMMAND)
        self.command.setReadOnly(True)
        self.command.setAccessibleName("Login command")
        self.copy_button = QPushButton("&Copy Command")
        self.copy_button.clicked.connect(self.copy_command)
        row = QHBoxLayout()
        row.addWidget(self.command, 1)
        row.addWidget(self.copy_button)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.retry_button = self.buttons.addButton("&Try Again", QDialogButtonBox.ButtonRole.AcceptRole)
        self.retry_button.setDefault(True)
        self.buttons.accepted.connect(self.retry)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(how)
        layout.addLayout(row)
        layout.addWidget(self.buttons)

    def copy_command(self) -> None:
        QGuiApplication.clipboard().setText(LOGIN_COMMAND)
        self.copy_button.setText("Copied")

    def retry(self) -> None:
        self.retry_requested.emit(self.source)
        self.accept()
