"""Paiju's server side: NATS-connected services around the pure-Python engine.

Vertical slices, each one job:

- ``store``: the JetStream event store (one stream, a subject per table) and the KV buckets;
- ``tablelog``: a table's log replayed into engine state, shared by every service that reads one;
- ``tables``: the table service, the only writer of events (NATS request/reply, queue group);
- ``bots``: the bots service, which takes empty seats and plays through the table service;
- ``gateway``: the Litestar HTTP API and WebSocket gateway;
- ``launcher``: starts nats-server and the services from a deploy/ config (``make run``).

docs/architecture.md explains the design, docs/services.md the subjects, buckets, endpoints,
frames and error codes.
"""

__version__ = "0.1.0"
