"""The bots service sees exactly what its seats may see: the table service offers a bot seat its
turn with that seat's view alone (``paiju.turns.<table>``), and the bots play whole games from
those views. Every offered turn of a bots-only match is recorded and checked against the hands as
the finished log shows them at the turn's version: each is exactly the seat's view, and holds no
card beyond the seat's own hand and the public ones (counted copy by copy, as the engine's
property tests count them: 打棒 plays four decks)."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import nats
import pytest

from integration.harness import Stack, logged_states, new_table, owner, until, wait_status
from paiju import api
from paiju.selfcheck import codes_in, without_hidden_hands
from paiju_services import subjects
from paiju_services.messages import BotTurn

GAMES = [("guanpai", "boke", 3), ("banzipao", "guizhou", 4), ("dabang", "huludao", 4)]
# one hand of each: 打棒's match would otherwise go on until a side passes 10
ONE_HAND = {"hands": 1}


@pytest.mark.parametrize(("game", "variant", "players"), GAMES, ids=[g for g, _, _ in GAMES])
async def test_a_bot_seat_is_offered_its_own_view_only(
    stack: Stack, http: httpx.AsyncClient, game: str, variant: str, players: int
) -> None:
    turns: list[BotTurn] = []

    async def record(msg: Any) -> None:
        turns.append(msgspec.json.decode(msg.data, type=BotTurn))

    observer = await nats.connect(stack.nats_url)
    try:
        table = await new_table(http, game=game, variant=variant, players=players, options=ONE_HAND)
        await observer.subscribe(subjects.turns_subject(table), cb=record)
        r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert r.status_code == 200, r.text
        await wait_status(http, table, "finished", timeout=120)
        events, states = await logged_states(http, table)
        moves = sum(1 for e in events if e.TYPE in ("played", "passed", "bid_made"))
        # the offers' messages may trail the table's end
        await until("every move's offered turn", lambda: len({t.version for t in turns}) >= moves)
    finally:
        await observer.close()

    assert len({t.version for t in turns}) >= moves > 10  # every move was an offered turn
    checked = 0
    for turn in turns:
        state = states[turn.version]
        # exactly the seat's view at that version, as the engine makes it for that seat
        assert turn.view == api.view(state, turn.seat), (turn.version, turn.seat)
        # and nothing in it beyond the seat's own hand and the public cards, copy by copy
        public = codes_in(api.view(without_hidden_hands(state, turn.seat), turn.seat))
        leaked = codes_in(turn.view) - public
        assert not leaked, (turn.table, turn.version, turn.seat, sorted(leaked.elements()))
        checked += 1
    assert checked > 10
