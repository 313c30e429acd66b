// Where a table's commands go, and where its frames come from: a transport. The table page
// (table.js) knows only this interface, so that the server's WebSocket (here) and a practice
// table run in the engine worker, emitting the same frames, can stand in for each other:
//
//   open(onFrame, onLink)   start; onFrame(frame) for each frame (welcome, state, ack, error, over,
//                           rematch), onLink({link, hello, final}) as the link changes: "connecting",
//                           "open" (hello: a hello went out with it), "closed" (final: for good)
//   send(frame) → boolean   a frame out (command, sync, hello); false when it cannot go now
//   close()                 stop for good (a table left, or gone)
//
// The server's socket, /ws/tables/<id>: a hello with the seat's token as it opens (the server
// welcomes the token to its seat), and back after a drop, soon after a gateway restarts and later
// and later while it stays away (backoff.js, with jitter so that a gateway's thousands of sockets
// do not all come back at once). A finished match's socket closes for good.

import * as backoff from "./backoff.js";

/** @typedef {(frame: any) => void} FrameListener */
/** @typedef {(status: {link: "connecting" | "open" | "closed", hello?: boolean, final?: boolean}) => void} LinkListener */
/** @typedef {{open(onFrame: FrameListener, onLink: LinkListener): void, send(frame: any): boolean, close(): void}} Transport */

/**
 * The server's WebSocket as a transport. `hello()`: the seat's token to say hello with (null: a
 * spectator). The socket class and the timers are passed in (tests give fakes).
 * @param {{url: string, hello: () => string | null, WebSocketClass?: typeof WebSocket,
 *   schedule?: (fn: () => void, ms: number) => any, cancel?: (timer: any) => void, random?: () => number}} options
 * @returns {Transport}
 */
export function socketTransport({ url, hello, WebSocketClass = WebSocket, schedule = setTimeout, cancel = clearTimeout, random = Math.random }) {
  /** @type {WebSocket | null} */
  let socket = null;
  /** @type {FrameListener} */
  let onFrame = () => {};
  /** @type {LinkListener} */
  let onLink = () => {};
  let failures = 0; // drops in a row, since the table last welcomed this page
  let stopped = false; // closed by the page
  let ended = false; // the match is over: its socket closes quietly
  let timer = null;

  function connect() {
    if (stopped) return;
    const ws = new WebSocketClass(url);
    socket = ws;
    onLink({ link: "connecting" });
    ws.onopen = () => {
      const token = hello();
      if (token) ws.send(JSON.stringify({ type: "hello", token }));
      onLink({ link: "open", hello: !!token });
    };
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      // the table is served: not when the socket opens, as one the server cannot serve yet
      // (unavailable, overloaded) opens, says so and closes (1013)
      if (frame?.type === "welcome") failures = 0;
      if (frame?.type === "over") ended = true;
      onFrame(frame);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      const final = stopped || ended;
      onLink({ link: "closed", final });
      if (final) return;
      timer = schedule(connect, backoff.delay(backoff.RECONNECT, failures, { random }));
      failures += 1;
    };
  }

  return {
    open(frames, links) {
      onFrame = frames;
      onLink = links;
      connect();
    },
    send(frame) {
      if (!socket || socket.readyState !== WebSocketClass.OPEN) return false;
      socket.send(JSON.stringify(frame));
      return true;
    },
    close() {
      stopped = true;
      cancel(timer);
      socket?.close();
    },
  };
}

/** The address of a table's socket on the page's own server.
 * @param {Location} where @param {string} tableId */
export function tableSocketUrl(where, tableId) {
  const proto = where.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${where.host}/ws/tables/${encodeURIComponent(tableId)}`;
}
