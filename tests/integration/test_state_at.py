"""``GET /api/tables/{id}/state?at=N`` for every index of a finished game is the engine's replay of
the log to N: its spectator view, and every seat's hand."""

from __future__ import annotations

import json

import httpx

from integration.harness import Stack, logged_states, new_table, owner, wait_status
from paiju import api
from paiju.cards import card_codes


async def test_state_at_every_index_equals_the_engine_replay(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, variant="suzhou", players=3)
    r = await http.post(
        f"/api/tables/{table}/bots", json={"seats": [0, 1, 2]}, headers=owner(table)
    )  # bots only
    assert r.json()["seats"] == [0, 1, 2]
    await wait_status(http, table, "finished")

    events, states = await logged_states(http, table)
    for index, state in enumerate(states):
        body = (await http.get(f"/api/tables/{table}/state", params={"at": index})).json()
        assert body["index"] == index and body["events"] == len(events) and body["finished"]
        assert body["view"] == json.loads(json.dumps(api.view(state, None)))
        assert body["hands"] == [card_codes(h) for h in state.hands]
    latest = (await http.get(f"/api/tables/{table}/state")).json()
    assert latest["index"] == len(events) and latest["view"]["phase"] == "over"
