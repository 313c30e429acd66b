"""The one digest of a seat or owner token that the services store and compare: its SHA-256, hex.

A token is a bearer secret the table service issues (a seat's at a join, the owner's at a create);
the directory keeps only this digest of it
(``Seat.token_sha256``, ``TableMeta.owner_sha256``) and the secrets bucket names a seat's view key
by it (``views.key_name``). The table service, its publisher and the gateway all hash here, so that
what one writes the others find; a module of its own so that the gateway needs nothing of the table
service for it.
"""

from __future__ import annotations

import hashlib


def token_hash(token: str) -> str:
    """The SHA-256 of the token's UTF-8 bytes, as 64 hex digits.

    >>> token_hash("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(token.encode()).hexdigest()
