"""Every game in the catalogue plays to the end of its match through the gateway: one person's
seat on a WebSocket, bots in the other seats, and an exported log that ``paiju audit`` confirms.
Nothing here is specific to a game: a game the engine registers is served as it is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from integration.harness import Socket, Stack, join, new_table, owner, play_seat
from paiju.api import list_games

PAIJU = str(Path(sys.executable).parent / "paiju")
# a shorter 条数 match (first to 40 counted cards instead of 100) keeps the test quick; the
# match end itself is the same rule. 打棒 plays to a side passing 10, a dozen hands or more: here
# two, its hands cap (the climb to 10 and past it is test_dabang's, in the engine)
SHORTER = {"tiaoshu": {"limit": 40}, "dabang": {"hands": 2}}
GAMES = [(game["id"], game["variants"][0]["id"]) for game in list_games()]


@pytest.mark.parametrize(("game", "variant"), GAMES)
async def test_each_game_plays_to_the_end_with_bots(
    stack: Stack, http: httpx.AsyncClient, tmp_path: Path, game: str, variant: str
) -> None:
    table = await new_table(http, game=game, variant=variant, options=SHORTER.get(game, {}))
    token = await join(http, table, "玩家", seat=0)
    filled = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert filled.status_code == 200, filled.text

    sock = await Socket.open(stack.ws, table, token)
    over = await play_seat(sock, 0, pace=0.06)
    await sock.close()
    assert over["table"] == table and sum(over["totals"]) == 0

    path = tmp_path / f"{game}.jsonl"
    subprocess.run(
        [PAIJU, "export", table, "--gateway", stack.http, "-o", str(path)],
        check=True,
        capture_output=True,
    )
    audit = subprocess.run([PAIJU, "audit", str(path), "--json"], capture_output=True, text=True)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    report = json.loads(audit.stdout)
    assert report["ok"] and report["totals"] == over["totals"]
    assert all(deal["status"] == "verified" for deal in report["deals"])
