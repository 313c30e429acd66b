"""The provably fair deal: a SHA-256 shuffle that any language can re-derive.

Protocol (docs/log-format.md has the auditor's view):

1. Before the deal the server publishes ``commitment = sha256(utf8(server_seed))`` (hex).
2. Each seated player may then add a seed of their own. Nobody but the server knows the server
   seed, and the server has committed before it sees the players' seeds, so neither side alone
   chooses the deal.
3. The shuffle key is ``sha256(utf8("paiju-deal-v1\\n" + server_seed + "\\n" + lines))`` where
   ``lines`` is, for each seat in order that added a seed, ``"<seat>:<seed>\\n"``.
4. A stream of 64-bit numbers: block ``k`` (k = 0, 1, ...) is ``sha256(key + k.to_bytes(8, "big"))``,
   each block gives four big-endian uint64 in order.
5. Fisher-Yates over the sorted pack (cards sorted by their int, see cards.py): for ``i`` from
   ``n-1`` down to ``1``, draw ``x`` from the stream until ``x < 2**64 - 2**64 % (i+1)`` (rejection,
   so no bias), then swap positions ``i`` and ``x % (i+1)``.
6. The hand-out (``scheme``). ``round``, as the games are dealt: card by card round the table, the
   card at position ``i`` (``i < n*h``, ``n`` seats, ``h`` the hand size) goes to seat
   ``(first + i) % n``, ``first`` being the seat that draws first; each hand is kept in the order
   it was received, and the cards from position ``n*h`` on are the rest (a kitty), in pack order.
   ``blocks`` (schema-1 logs): seat ``s`` receives positions ``s*h .. s*h+h-1``, each hand and the
   rest sorted.
7. The lot (only for a game that draws the seat to deal first at random: 打棒's "第一局随机确认
   庄家"): the stream of step 4 keyed ``sha256(key + utf8("seat"))`` instead of ``key``; the first
   ``x < 2**64 - 2**64 % n`` it gives (``n`` seats) draws seat ``x % n``, who is then ``first``.

When the hand ends the server reveals its seed and anyone checks both the commitment and the hands.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from paiju.cards import Card, Hand

DOMAIN = "paiju-deal-v1"


def commitment_of(seed: str) -> str:
    """The published commitment of a server seed: the SHA-256 hex digest of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


def shuffle_key(server_seed: str, player_seeds: Sequence[str | None]) -> bytes:
    lines = "".join(f"{seat}:{s}\n" for seat, s in enumerate(player_seeds) if s is not None)
    return hashlib.sha256(f"{DOMAIN}\n{server_seed}\n{lines}".encode()).digest()


def _uint64_stream(key: bytes) -> Iterator[int]:
    block = 0
    while True:
        digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


def draw_seat(server_seed: str, player_seeds: Sequence[str | None], players: int) -> int:
    """A seat drawn by lot from the deal's seeds (step 7): a game that chooses its first dealer at
    random, before the deal, draws him here, so that neither the server nor a player alone
    chooses him and an auditor re-derives him from the revealed seed. Independent of the shuffle
    (its own key).

    >>> draw_seat("s", [None, "x"], 4) == draw_seat("s", [None, "x"], 4) < 4
    True
    """
    stream = _uint64_stream(
        hashlib.sha256(shuffle_key(server_seed, player_seeds) + b"seat").digest()
    )
    limit = 2**64 - 2**64 % players
    x = next(stream)
    while x >= limit:
        x = next(stream)
    return x % players


def shuffle(pack: Sequence[Card], server_seed: str, player_seeds: Sequence[str | None]) -> Hand:
    """The pack shuffled by the documented algorithm (the pack is sorted first)."""
    cards = sorted(pack)
    stream = _uint64_stream(shuffle_key(server_seed, player_seeds))
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = 2**64 - 2**64 % bound
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % bound
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def deal(
    pack: Sequence[Card],
    players: int,
    hand_size: int,
    server_seed: str,
    player_seeds: Sequence[str | None],
    scheme: str = "round",
    first: int = 0,
) -> tuple[tuple[Hand, ...], Hand]:
    """The hands and the rest, dealt from the shuffled pack by ``scheme`` (step 6): ``round``
    gives each hand in the order its cards were drawn, ``blocks`` sorted hands.

    Raises:
        ValueError: an unknown scheme.
    """
    shuffled = shuffle(pack, server_seed, player_seeds)
    dealt = players * hand_size
    if scheme == "round":
        hands = tuple(
            shuffled[(seat - first) % players : dealt : players] for seat in range(players)
        )
        return hands, shuffled[dealt:]
    if scheme == "blocks":
        blocks = tuple(
            tuple(sorted(shuffled[s * hand_size : (s + 1) * hand_size])) for s in range(players)
        )
        return blocks, tuple(sorted(shuffled[dealt:]))
    raise ValueError(f"unknown deal scheme {scheme!r}")
