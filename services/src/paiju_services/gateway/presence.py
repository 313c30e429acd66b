"""What the other gateway copies said last of each table's sockets (``paiju.presence.<table>``):
the ``connected`` seats a feed shows are its own watchers' and these (``feeds.TableFeed``).
"""

from __future__ import annotations


class PresenceBook:
    """What the other gateway copies said last of each table (``paiju.presence.<table>``): the
    seats they hold sockets for. A copy not heard of for ``ttl`` seconds counts as gone."""

    def __init__(self, instance: str, ttl: float) -> None:
        self.instance = instance
        self.ttl = ttl
        self.tables: dict[str, dict[str, tuple[frozenset[int], float]]] = {}

    def heard(self, table_id: str, instance: str, seats: frozenset[int], now: float) -> None:
        if instance == self.instance:
            return  # this copy's own word: it knows its watchers
        copies = self.tables.setdefault(table_id, {})
        if seats:
            copies[instance] = (seats, now)
        else:
            copies.pop(instance, None)
            if not copies:
                del self.tables[table_id]

    def seats(self, table_id: str, now: float) -> frozenset[int]:
        """The seats the other copies hold sockets for, as they said within ``ttl``."""
        out: frozenset[int] = frozenset()
        for seats, at in self.tables.get(table_id, {}).values():
            if now - at <= self.ttl:
                out |= seats
        return out

    def forget_old(self, now: float) -> None:
        for table_id in list(self.tables):
            copies = self.tables[table_id]
            for instance in [i for i, (_, at) in copies.items() if now - at > self.ttl]:
                del copies[instance]
            if not copies:
                del self.tables[table_id]
