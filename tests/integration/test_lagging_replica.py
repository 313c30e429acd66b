"""The cluster stall, reproduced on one node: a table-service copy that reads a table from a
replica which has the table's directory entry but not yet its log (a lagging follower of the R3
stream) must answer a retryable ``unavailable``, never a final ``table_not_found`` or
``internal`` — the bots service gave up on a turn for ever on that answer, and the table stood
still "playing"."""

from __future__ import annotations

import secrets

import httpx
import nats

from integration.harness import Stack, join, new_table
from paiju_services import subjects
from paiju_services.bots import RETRY_CODES


async def test_a_table_whose_log_this_replica_lacks_is_unavailable_not_gone(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table_id = await new_table(http, players=3)
    token = await join(http, table_id, "落后的副本")
    # what a lagging replica shows: the directory entry of a table (copied here under a new id)
    # whose subject holds nothing yet
    lagging = secrets.token_hex(8)
    nc = await nats.connect(stack.nats_url)
    try:
        kv = await nc.jetstream().key_value(subjects.TABLES_BUCKET)
        entry = await kv.get(table_id)
        assert entry.value is not None
        await kv.create(lagging, entry.value.replace(table_id.encode(), lagging.encode()))
    finally:
        await nc.close()

    r = await http.post(
        f"/api/tables/{lagging}/commands",
        json={"id": "c1", "command": {"type": "pass", "seat": 0}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 503, r.text
    assert r.json()["code"] == "unavailable"
    assert r.json()["code"] in RETRY_CODES  # the bots service tries such a turn again

    # a table the directory does not know is still final
    unknown = secrets.token_hex(8)
    r = await http.post(
        f"/api/tables/{unknown}/commands",
        json={"id": "c1", "command": {"type": "pass", "seat": 0}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 404, r.text
    assert r.json()["code"] == "table_not_found"
