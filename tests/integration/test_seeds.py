"""Players' seeds in every hand, through the real services: every seat adds a seed of its own to
the first deal as it sits down and to each later deal with its 继续 (the table service commits to
the next deal before the score sheet's 继续, so the seed comes after the commitment and before the
shuffle); the exported log's audit verifies each hand's shuffle from the commitment and all the
seeds, and names a changed seed."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import httpx

from integration.harness import Socket, Stack, new_table, play_seat

PAIJU = str(Path(sys.executable).parent / "paiju")
HANDS = 3
SEATS = 3


async def test_every_seat_seeds_every_hand_and_the_audit_checks_each_shuffle(
    stack: Stack, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    table = await new_table(http, game="guanpai", players=SEATS, options={"hands": HANDS})
    tokens = []
    for seat in range(SEATS):
        body = {"name": f"P{seat + 1}", "seat": seat, "seed": f"seat{seat}-hand1"}
        r = await http.post(f"/api/tables/{table}/seats", json=body)
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    socks = [await Socket.open(stack.ws, table, token) for token in tokens]
    plays = (play_seat(sock, seat, pace=0.06) for seat, sock in enumerate(socks))
    overs = await asyncio.gather(*plays)  # paced: people, not a flood (the rate limit)
    for sock in socks:
        await sock.close()
    assert overs[0]["totals"] == overs[1]["totals"] == overs[2]["totals"]

    path = tmp_path / "seeded.jsonl"
    subprocess.run(
        [PAIJU, "export", table, "--gateway", stack.http, "-o", str(path)],
        capture_output=True,
        check=True,
    )
    lines = path.read_text().splitlines()
    events = [json.loads(line) for line in lines[1:]]
    for hand in range(1, HANDS + 1):
        committed = next(
            i
            for i, e in enumerate(events)
            if e["type"] == "deal_committed" and e["hand_no"] == hand
        )
        dealt = next(
            i for i, e in enumerate(events) if e["type"] == "dealt" and e["hand_no"] == hand
        )
        seeds = sorted(
            (e["seat"], e["seed"]) for e in events[committed:dealt] if e["type"] == "seed_added"
        )
        assert seeds == [(s, f"seat{s}-hand{hand}") for s in range(SEATS)], (hand, seeds)

    report = _audit(path)
    assert report["ok"], report
    assert [(d["hand_no"], d["status"]) for d in report["deals"]] == [
        (h, "verified") for h in range(1, HANDS + 1)
    ]
    assert report["totals"] == overs[0]["totals"]

    # a seed changed after the fact: the shuffle of its hand no longer follows, and the audit says so
    i = next(n for n, line in enumerate(lines) if '"seat2-hand3"' in line)
    forged = tmp_path / "forged.jsonl"
    forged.write_text(
        "\n".join([*lines[:i], lines[i].replace("seat2-hand3", "seat2-handX"), *lines[i + 1 :]])
        + "\n"
    )
    bad = _audit(forged, ok=False)
    assert not bad["ok"]
    assert [d["status"] for d in bad["deals"][:2]] == ["verified", "verified"]


def _audit(path: Path, ok: bool = True) -> dict:
    done = subprocess.run([PAIJU, "audit", str(path), "--json"], capture_output=True, text=True)
    assert (done.returncode == 0) == ok, done.stdout + done.stderr
    report: dict = json.loads(done.stdout)
    return report
