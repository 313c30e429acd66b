"""The bot plays by what its seat may know: in 板子炮 it lets a known ally's play stand, and it
knows no more than a player would (the dealer does not know his partner before the called card is
played)."""

from __future__ import annotations

from story import Table, dealt

from paiju import bots
from paiju.cards import parse_card
from paiju.games.banzipao import GAME
from paiju.protocol import Bid, CallCard, Pass, Play

HANDS = (
    "7S 3S 3H 4S 4H 5S 5H 6S 6H 8S 8H 9S 9H",  # seat 0: the dealer (♠7)
    "7H 3C 3D 4C 4D 5C 5D 6C 6D 8C 8D 9C 9D",
    "7C TS TH JS JH QS QH KS KH AS AH 2S 2H",
    "7D TC TD JC JD QC QD KC KD AC AD 2C 2D",
)


def two_against_two(called: str) -> Table:
    """Nobody bids; the dealer (seat 0) calls ``called``."""
    t = dealt(GAME.config(), HANDS, leader=0)
    for seat in range(4):
        t.do(Bid(seat=seat, bid="pass"))
    t.do(CallCard(seat=0, card=parse_card(called)))
    return t


def test_the_partner_lets_the_dealers_play_stand() -> None:
    t = two_against_two("2D")  # seat 3 is the partner
    t.play(0, "3S")
    t.passes(1, 2)
    assert GAME.allies(t.state, 3) == {0}
    assert bots.choose(t.state, 3) == Pass(seat=3)  # it could beat 3S, and does not


def test_the_dealer_and_the_others_know_no_ally_before_the_called_card_is_played() -> None:
    t = two_against_two("2D")
    assert GAME.allies(t.state, 0) == frozenset()
    assert GAME.allies(t.state, 1) == frozenset() and GAME.allies(t.state, 2) == frozenset()
    t.play(0, "3S")
    t.play(1, "4C")
    t.play(2, "TS")
    assert isinstance(bots.choose(t.state, 3), Play)  # seat 2 is no ally of the partner
    t.play(3, "2D")  # the called card: now everyone knows the sides
    assert GAME.allies(t.state, 0) == {3}
    assert GAME.allies(t.state, 1) == {2} and GAME.allies(t.state, 2) == {1}


def test_one_against_three_the_three_are_allies_and_a_duel_has_none() -> None:
    t = dealt(GAME.config(), HANDS, leader=0)
    t.do(Bid(seat=0, bid="bao"))
    t.do(Bid(seat=1, bid="pass"))
    assert GAME.allies(t.state, 0) == frozenset()
    assert GAME.allies(t.state, 2) == {1, 3}
    duel = dealt(GAME.config(), HANDS, leader=0)
    duel.do(Bid(seat=0, bid="bao"))
    duel.do(Bid(seat=1, bid="fanbao"))
    assert GAME.allies(duel.state, 0) == frozenset() and GAME.allies(duel.state, 1) == frozenset()
