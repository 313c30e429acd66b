// node --test web-client/test/: the server's WebSocket as a table's transport (js/table-socket.js),
// driven with a fake socket class and fake timers passed in.
import assert from "node:assert/strict";
import { test } from "node:test";

import { socketTransport, tableSocketUrl } from "../js/table-socket.js";

/** A WebSocket that does what the test tells it. */
class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(data) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  // what the server does
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(frame) {
    this.onmessage?.({ data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

/** A transport on fake sockets and timers; what it reported. */
function harness(token = "tok") {
  FakeSocket.made = [];
  const timers = [];
  const frames = [];
  const links = [];
  const transport = socketTransport({
    url: "ws://host/ws/tables/t1",
    hello: () => token,
    WebSocketClass: /** @type {any} */ (FakeSocket),
    schedule: (fn, ms) => timers.push({ fn, ms }),
    cancel: () => {},
    random: () => 0,
  });
  transport.open((frame) => frames.push(frame), (link) => links.push(link));
  return { transport, timers, frames, links, socket: () => FakeSocket.made.at(-1) };
}

test("the table's socket address, on the page's own server", () => {
  assert.equal(tableSocketUrl(/** @type {any} */ ({ protocol: "https:", host: "127.0.0.1:8443" }), "a b"), "wss://127.0.0.1:8443/ws/tables/a%20b");
  assert.equal(tableSocketUrl(/** @type {any} */ ({ protocol: "http:", host: "localhost:8000" }), "t1"), "ws://localhost:8000/ws/tables/t1");
});

test("a seat's socket says hello with its token as it opens", () => {
  const { socket, links } = harness();
  assert.deepEqual(links, [{ link: "connecting" }]);
  socket().open();
  assert.deepEqual(socket().sent, [{ type: "hello", token: "tok" }]);
  assert.deepEqual(links.at(-1), { link: "open", hello: true });
});

test("a spectator's socket says no hello", () => {
  const { socket, links } = harness(null);
  socket().open();
  assert.deepEqual(socket().sent, []);
  assert.deepEqual(links.at(-1), { link: "open", hello: false });
});

test("frames come in parsed; what is not JSON is dropped", () => {
  const { socket, frames } = harness();
  socket().open();
  socket().receive({ type: "welcome", seat: 0 });
  socket().receive("not json");
  socket().receive({ type: "state", view: {} });
  assert.deepEqual(frames.map((f) => f.type), ["welcome", "state"]);
});

test("send: only on an open socket", () => {
  const { transport, socket } = harness(null);
  assert.equal(transport.send({ type: "sync" }), false);
  socket().open();
  assert.equal(transport.send({ type: "sync" }), true);
  assert.deepEqual(socket().sent, [{ type: "sync" }]);
});

test("a drop: back after a back-off that grows, and is reset once the table welcomes me", () => {
  const { socket, timers, links } = harness();
  const first = socket();
  first.open();
  first.drop();
  assert.deepEqual(links.at(-1), { link: "closed", final: false });
  assert.equal(timers.length, 1);
  assert.equal(timers[0].ms, 125); // half of the first ceiling (random 0)
  timers[0].fn();
  assert.notEqual(socket(), first);
  socket().open(); // opened, but not served: the next wait is longer
  socket().drop();
  assert.equal(timers[1].ms, 250);
  timers[1].fn();
  socket().open();
  socket().receive({ type: "welcome", seat: 0 });
  socket().drop();
  assert.equal(timers[2].ms, 125);
  assert.deepEqual(socket().sent, [{ type: "hello", token: "tok" }]); // every new socket says hello
});

test("closed by the page: for good, with no reconnect", () => {
  const { transport, socket, timers, links } = harness();
  socket().open();
  transport.close();
  assert.deepEqual(links.at(-1), { link: "closed", final: true });
  assert.equal(timers.length, 0);
  assert.equal(transport.send({ type: "sync" }), false);
});

test("a finished match's socket closes quietly, for good", () => {
  const { socket, timers, links } = harness();
  socket().open();
  socket().receive({ type: "over" });
  socket().drop();
  assert.deepEqual(links.at(-1), { link: "closed", final: true });
  assert.equal(timers.length, 0);
});

test("a socket replaced is no longer heard", () => {
  const { socket, timers, links } = harness();
  const first = socket();
  first.drop();
  timers[0].fn();
  const count = links.length;
  first.onclose?.(); // the old socket's late close
  assert.equal(links.length, count);
});
