"""The services' caches of table logs (tablelog.LRU) are bounded in the stored bytes of the logs
they hold, not only in their number: a few long matches cannot fill a copy's memory."""

from __future__ import annotations

import random

import msgspec

from paiju import api
from paiju.protocol import encode
from paiju.simulate import play_game, random_chooser
from paiju_services.store import Stored
from paiju_services.tablelog import LRU, TableLog, header_line

CONFIG = api.config_from_dict({"game": "guanpai", "variant": "boke", "players": 3, "options": {}})


def logged(table_id: str, seed: str) -> TableLog:
    """A whole bot-played match, as a cache holds it after loading it from the stream."""
    _, events = play_game(CONFIG, seed, random_chooser(random.Random(seed)))
    table = TableLog.start(Stored(1, header_line(CONFIG, table_id), {}), table_id)
    for seq, event in enumerate(events, start=2):
        table.apply(Stored(seq, msgspec.json.encode(encode(event)), {}))
    return table


def test_a_log_counts_its_stored_bytes() -> None:
    table = logged("a" * 16, "s1")
    assert table.nbytes == sum(len(line) for line in table.lines) > 1000


def test_the_cache_drops_the_least_recent_logs_past_its_bytes() -> None:
    tables = [logged(f"{i:016x}", f"seed{i}") for i in range(6)]
    budget = tables[0].nbytes + tables[1].nbytes + tables[2].nbytes
    cache = LRU(size=100, max_bytes=budget)
    for table in tables[:3]:
        cache.put(table.table_id, table)
    assert list(cache) == [t.table_id for t in tables[:3]] and cache.stored_bytes() <= budget
    cache.get_fresh(tables[0].table_id)  # used: the least recent is now tables[1]
    cache.put(tables[3].table_id, tables[3])
    assert tables[1].table_id not in cache and tables[0].table_id in cache
    assert cache.stored_bytes() <= budget
    for table in tables[4:]:
        cache.put(table.table_id, table)
    assert cache.stored_bytes() <= budget and tables[5].table_id in cache


def test_a_log_longer_than_the_bound_is_still_kept_alone() -> None:
    big, small = logged("b" * 16, "big"), logged("c" * 16, "small")
    cache = LRU(size=10, max_bytes=big.nbytes // 2)
    cache.put(small.table_id, small)
    cache.put(big.table_id, big)
    assert list(cache) == [big.table_id]  # the one just loaded stays: it is being used


def test_the_count_still_bounds_it() -> None:
    cache = LRU(size=2)
    tables = [logged(f"{i:016x}", f"n{i}") for i in range(3)]
    for table in tables:
        cache.put(table.table_id, table)
    assert list(cache) == [t.table_id for t in tables[1:]]
