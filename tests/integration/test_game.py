"""A whole game over the gateway: a person's seat on a WebSocket, two bots, to the scored result;
the result the gateway announces is the one ``paiju audit`` finds in the exported log."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

from integration.harness import Socket, Stack, join, new_table, owner, play_seat, wait_status
from paiju.protocol import SCHEMA_VERSION

PAIJU = str(Path(sys.executable).parent / "paiju")


async def test_a_person_and_two_bots_play_to_the_result_that_audit_confirms(
    stack: Stack, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    table = await new_table(http, game="guanpai", variant="boke")
    token = await join(http, table, "Alice 爱丽丝", seat=0)
    r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == [1, 2]

    sock = await Socket.open(stack.ws, table, token)
    over = await play_seat(sock, 0)
    await sock.close()

    assert over["table"] == table
    assert sum(over["totals"]) == 0 and any(over["totals"])
    listing = await wait_status(
        http, table, "finished", timeout=10
    )  # the directory follows the log
    assert listing["totals"] == over["totals"]

    # the log is public now: export it with the engine's CLI, audit it offline
    path = tmp_path / "game.jsonl"
    out = subprocess.run(
        [PAIJU, "export", table, "--gateway", stack.http, "-o", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "events written" in out.stdout
    audit = subprocess.run([PAIJU, "audit", str(path), "--json"], capture_output=True, text=True)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    report = json.loads(audit.stdout)
    assert report["ok"] and all(d["status"] == "verified" for d in report["deals"])
    assert report["totals"] == over["totals"]
    assert report["result"] == over["result"]

    # the HTTP log says the same
    log = (await http.get(f"/api/tables/{table}/log")).json()
    assert log["result"]["totals"] == over["totals"]
    assert log["result"]["hands"][-1] == over["result"]
    assert len(log["events"]) == report["events"]
    assert path.read_text().splitlines()[0] == json.dumps(
        {
            "type": "paiju_log",
            "v": SCHEMA_VERSION,
            "table": table,
            "config": log["header"]["config"],
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )
