"""The root of the engine's errors, in a module that imports nothing of the engine: ``paiju.cards``
raises ``NotationError`` while ``paiju.errors`` names cards in its messages (``paiju.cards``), so
the base classes both need sit below both. Import them from ``paiju.errors``, which re-exports them
beside ``RuleError`` and the catalogue of messages.
"""

from __future__ import annotations


class PaijuError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(PaijuError):
    """A text is not a card code."""

    def __init__(self, text: str) -> None:
        super().__init__(f"not a card: {text!r}")
        self.text = text
