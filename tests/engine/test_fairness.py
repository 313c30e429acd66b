"""The provably fair deal: a documented SHA-256 shuffle, a commitment before play, the seed
revealed after, players' seeds mixed in, and verify_deal catching any tampering."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from paiju import fairness
from paiju.cards import build_deck, format_cards
from paiju.errors import RuleError
from paiju.games.guanpai import GAME
from paiju.log.deals import verify_deal
from paiju.log.file import dump_lines
from paiju.log.replay import audit
from paiju.protocol import AddSeed, CommitDeal, Deal, DealCommitted, Dealt, RevealSeed, SeedRevealed
from paiju.simulate import hand_seed, play_game

PACK = build_deck(removed=["2H", "2D", "2C", "AD"])


def test_commitment_is_the_sha256_of_the_seed() -> None:
    assert fairness.commitment_of("abc") == hashlib.sha256(b"abc").hexdigest()


def test_the_shuffle_follows_the_documented_algorithm() -> None:
    """Re-derive the shuffle from the docstring's description, independently of the engine."""
    key = hashlib.sha256(b"paiju-deal-v1\nserver\n0:alice\n2:carol\n").digest()

    def numbers():  # type: ignore[no-untyped-def]
        block = 0
        while True:
            digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
            for i in range(4):
                yield int.from_bytes(digest[8 * i : 8 * i + 8], "big")
            block += 1

    cards, stream = sorted(PACK), numbers()
    for i in range(len(cards) - 1, 0, -1):
        x = next(stream)
        while x >= 2**64 - 2**64 % (i + 1):
            x = next(stream)
        j = x % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert fairness.shuffle(PACK, "server", ["alice", None, "carol"]) == tuple(cards)


def test_the_deal_is_deterministic_and_every_seed_changes_it() -> None:
    hands, rest = fairness.deal(PACK, 3, 16, "s", [None, None, None])
    assert (hands, rest) == fairness.deal(PACK, 3, 16, "s", [None, None, None])
    assert sorted(c for h in hands for c in h) == list(PACK) and rest == ()
    assert fairness.deal(PACK, 3, 16, "t", [None, None, None])[0] != hands
    assert fairness.deal(PACK, 3, 16, "s", [None, "mine", None])[0] != hands


def test_two_players_get_three_piles_and_one_stays_unused() -> None:
    hands, rest = fairness.deal(PACK, 2, 16, "s", [None, None])
    assert [len(h) for h in hands] == [16, 16] and len(rest) == 16


def test_the_deal_needs_the_committed_seed() -> None:
    state = GAME.initial_state(GAME.config("boke"))
    state, _ = GAME.apply(state, CommitDeal(commitment=fairness.commitment_of("right")))
    with pytest.raises(RuleError) as err:
        GAME.decide(state, Deal(seed="wrong"))
    assert err.value.code == "seed_mismatch"
    with pytest.raises(RuleError) as err:
        GAME.decide(state, CommitDeal(commitment="0" * 64))
    assert err.value.code == "wrong_phase"


def test_players_seeds_are_mixed_in_once_each() -> None:
    state = GAME.initial_state(GAME.config("boke"))
    state, _ = GAME.apply(state, CommitDeal(commitment=fairness.commitment_of("srv")))
    state, _ = GAME.apply(state, AddSeed(seat=1, seed="bob's"))
    with pytest.raises(RuleError) as err:
        GAME.decide(state, AddSeed(seat=1, seed="again"))
    assert err.value.code == "seed_already_added"
    with pytest.raises(RuleError) as err:
        GAME.decide(state, AddSeed(seat=0, seed=""))
    assert err.value.code == "bad_seed"
    _, events = GAME.apply(state, Deal(seed="srv"))
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    assert dealt.hands == fairness.deal(PACK, 3, 16, "srv", [None, "bob's", None])[0]


def test_the_seed_is_revealed_only_after_the_hand_and_must_match() -> None:
    config = GAME.config("boke")
    state, events = play_game(config, "table-secret", lambda s, seat, moves: moves[0])
    revealed = [e for e in events if isinstance(e, SeedRevealed)]
    assert [e.seed for e in revealed] == [hand_seed("table-secret", 1)]
    assert all("table-secret" not in repr(e) for e in events if not isinstance(e, SeedRevealed))
    assert state.revealed == (hand_seed("table-secret", 1),)
    # and a wrong reveal is refused
    before_reveal = events[: events.index(revealed[0])]
    from functools import reduce

    pending = reduce(GAME.evolve, before_reveal, GAME.initial_state(config))
    with pytest.raises(RuleError) as err:
        GAME.decide(pending, RevealSeed(seed="not-it"))
    assert err.value.code == "seed_mismatch"


def honest_log() -> tuple[object, list[object]]:
    config = GAME.config("mainstream", 3, hands=2)
    _, events = play_game(config, "honest", lambda s, seat, moves: moves[-1])
    return config, events


def test_verify_deal_accepts_an_honest_log() -> None:
    config, events = honest_log()
    checks = verify_deal(config, events)  # type: ignore[arg-type]
    assert [(c.hand_no, c.status) for c in checks] == [(1, "verified"), (2, "verified")]


def test_verify_deal_rejects_a_tampered_seed_commitment_or_hand() -> None:
    config, events = honest_log()

    def tampered(kind: type, **changes: object) -> list[str]:
        first = next(i for i, e in enumerate(events) if isinstance(e, kind))
        bad = list(events)
        bad[first] = dataclasses.replace(bad[first], **changes)  # type: ignore[call-overload]
        return [c.status for c in verify_deal(config, bad)]  # type: ignore[arg-type]

    assert (
        tampered(SeedRevealed, seed="honest/9")[0]
        == "the revealed seed does not match the commitment"
    )
    assert (
        tampered(DealCommitted, commitment="0" * 64)[0]
        == "the revealed seed does not match the commitment"
    )
    dealt = next(e for e in events if isinstance(e, Dealt))
    swapped = list(dealt.hands)
    swapped[0], swapped[1] = (swapped[1][:1] + swapped[0][1:]), (swapped[0][:1] + swapped[1][1:])
    status = tampered(Dealt, hands=tuple(tuple(sorted(h)) for h in swapped))[0]
    assert status == "the dealt hands do not follow from the seeds"
    assert format_cards(dealt.hands[0])  # the hands are real cards


def test_a_revealed_hand_seed_gives_away_no_other_hand() -> None:
    """Each hand's seed is an HMAC of the table's secret: knowing hand 1's seed (revealed after
    hand 1) does not give hand 2's, which is not derivable from it."""
    first, second = hand_seed("secret", 1), hand_seed("secret", 2)
    assert len(first) == 64 and first != second
    assert "secret" not in first and hand_seed(first, 1) != second


def test_the_deal_goes_card_by_card_round_the_table_from_the_first_drawer() -> None:
    """As the games are dealt: card i of the shuffled pack goes to seat (first + i) mod n, each
    hand kept in the order drawn, the rest (a kitty) in pack order."""
    shuffled = fairness.shuffle(PACK, "s", [None] * 3)
    hands, rest = fairness.deal(PACK, 3, 15, "s", [None] * 3, "round", first=1)
    assert hands[1] == shuffled[0:45:3] and hands[2] == shuffled[1:45:3]
    assert hands[0] == shuffled[2:45:3] and rest == shuffled[45:]
    blocks, _ = fairness.deal(PACK, 3, 15, "s", [None] * 3, "blocks")
    assert blocks[0] == tuple(sorted(shuffled[:15]))  # schema-1 logs: a block each, sorted


def test_verify_deal_rejects_a_changed_draw_order_with_the_same_hands() -> None:
    """The log records the order each seat drew its cards in; swapping two cards of one hand (or
    of the kitty) changes no hand as a set, yet verify_deal and the audit both refuse it."""
    config, events = honest_log()
    first = next(i for i, e in enumerate(events) if isinstance(e, Dealt))
    dealt = events[first]
    assert isinstance(dealt, Dealt) and dealt.scheme == "round"
    hand = dealt.hands[0]
    reordered = (hand[1], hand[0], *hand[2:])
    assert sorted(reordered) == sorted(hand) and reordered != hand
    bad = list(events)
    bad[first] = dataclasses.replace(dealt, hands=(reordered, *dealt.hands[1:]))
    assert next(c.status for c in verify_deal(config, bad)) == (  # type: ignore[arg-type]
        "the dealt hands do not follow from the seeds"
    )
    report = audit(dump_lines(config, bad))  # type: ignore[arg-type]
    assert not report.ok and report.bad_index == first


def test_a_current_log_may_not_choose_the_old_hand_out() -> None:
    """``blocks`` exists only for schema-1 logs: a schema-2 log dealt that way is refused."""
    config, events = honest_log()
    first = next(i for i, e in enumerate(events) if isinstance(e, Dealt))
    seed = next(e.seed for e in events if isinstance(e, SeedRevealed))
    seeds = [None] * config.players  # type: ignore[attr-defined]
    blocks, rest = fairness.deal(GAME.pack(config), 3, 16, seed, seeds, "blocks")  # type: ignore[arg-type]
    dealt = events[first]
    bad = list(events)
    bad[first] = dataclasses.replace(dealt, hands=blocks, rest=rest, scheme="blocks")  # type: ignore[type-var]
    report = audit(dump_lines(config, bad))  # type: ignore[arg-type]
    assert report.error is not None and report.error.code == "deal_mismatch"
    assert report.bad_index == first
