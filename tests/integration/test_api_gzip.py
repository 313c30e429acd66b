"""The API's JSON answers are gzipped when the client accepts gzip and the answer is 1 kB or more
(gateway/gzip.py): the same JSON, fewer bytes; a small answer, or a client that does not accept
gzip, gets it as it is."""

from __future__ import annotations

import json

import httpx

from integration.harness import Stack, new_table


async def test_big_answers_are_gzipped_for_clients_that_accept_it(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http)
    async with httpx.AsyncClient(base_url=stack.http, timeout=20) as raw:
        plain = await raw.get("/api/games", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and "content-encoding" not in plain.headers
        request = raw.build_request("GET", "/api/games", headers={"Accept-Encoding": "br, gzip"})
        zipped = await raw.send(request, stream=True)
        body = await zipped.aread()  # httpx decodes: compare with the bytes on the wire too
        await zipped.aclose()
        assert zipped.headers["content-encoding"] == "gzip"
        assert "Accept-Encoding" in zipped.headers["vary"]
        assert json.loads(body) == plain.json()
        assert int(zipped.headers["content-length"]) < len(plain.content) / 4
        small = await raw.get(f"/api/tables/{table}/hands", headers={"Accept-Encoding": "gzip"})
        assert small.status_code == 200 and len(small.content) < 1024
        assert "content-encoding" not in small.headers
