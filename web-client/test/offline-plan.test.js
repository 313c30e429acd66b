// node --test web-client/test/: what the service worker does with each request (js/offline-plan.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { changesOf, strategyFor } from "../js/offline-plan.js";

const ORIGIN = "http://127.0.0.1:8000";
const plan = (path, method = "GET", origin = ORIGIN) => strategyFor(method, new URL(path, origin), ORIGIN);

test("a versioned file of Pyodide or the wheel is answered from the kept copy first", () => {
  assert.equal(plan("/pyodide/~3f09ab12cd34ef56/pyodide.asm.wasm"), "cache-first");
  assert.equal(plan("/wheels/~9c41ab12cd34ef56/paiju-0.1.0-py3-none-any.whl"), "cache-first");
});

test("the app shell, the plain engine files and the catalogue ask the network first", () => {
  for (const path of ["/", "/js/main.js", "/css/app.css", "/guide/guanpai.zh.md", "/versions.json",
    "/pyodide/pyodide.mjs", "/wheels/engine.snapshot", "/api/games"]) {
    assert.equal(plan(path), "network-first", path);
  }
});

test("live answers, sockets, writes, other sites and the list itself are left to the network", () => {
  assert.equal(plan("/api/tables"), "network");
  assert.equal(plan("/api/tables/abc/hands"), "network");
  assert.equal(plan("/ws/tables/abc"), "network");
  assert.equal(plan("/offline.json"), "network");
  assert.equal(plan("/api/games", "POST"), "network");
  assert.equal(plan("/js/main.js", "GET", "http://elsewhere:8080"), "network");
});

test("a new list fetches what is new and forgets what is gone, keeping the rest", () => {
  const kept = ["/", "/js/a.js", "/pyodide/~old/pyodide.asm.wasm"];
  const wanted = ["/", "/js/a.js", "/js/b.js", "/pyodide/~new/pyodide.asm.wasm"];
  assert.deepEqual(changesOf(kept, wanted), {
    fetch: ["/js/b.js", "/pyodide/~new/pyodide.asm.wasm"],
    forget: ["/pyodide/~old/pyodide.asm.wasm"],
  });
  assert.deepEqual(changesOf([], ["/"]), { fetch: ["/"], forget: [] });
});
