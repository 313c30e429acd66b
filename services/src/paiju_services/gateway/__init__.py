"""The gateway slice: a stateless Litestar app (HTTP API, WebSocket per table, static files).
``app.create_app`` wires it; any number of copies can run behind a load balancer."""
