// The engine worker: Pyodide (served by our gateway at /pyodide/) with the paiju wheel installed
// from /wheels/, running in a module worker so that the page never waits on Python.
//
// Protocol (every request carries an `id`; every reply echoes it):
//   main → worker  {id, op: "init", pyodide, wheel, snapshot} → {id, ok, result: {python, timings}}
//                  {id, op: "seat", key, config}             a SeatClient for one table/seat
//                  {id, op: "view", key, view}               → {seat, turn, moves, tracker}
//                                                            tracker: the seat's 记牌器 counts
//                                                            (paiju.tracker, from its views)
//                  {id, op: "check", key, cards, reading}    cards: ["3S", …] or null (a pass);
//                                                            reading: {kind, stands_for} or null
//                                                            → {ok, error?, readings?, command?, us}
//                  {id, op: "readings", key, cards}          → [{reading, kind, key, name}, …]
//                  {id, op: "order", key, cards, mode}       → cards in the game's display order
//                  {id, op: "replay", config, events}        → every step of a finished game
//                  {id, op: "audit", text, lang}             `paiju audit` of a log file's text
//                                                            (paiju.log.audit_json.audit_log, the
//                                                            module imported at the first audit):
//                                                            → {verdict,
//                                                            checks, findings, lines, …}; texts in
//                                                            lang "zh" | "en", or {zh, en} ("both")
//                  {id, op: "drop", key}                     forget a SeatClient
//                  {id, op: "practice", key, method, args}   a practice table run here
//                                                            (paiju.practice.PracticeJson, imported
//                                                            at the first): method "start" [args
//                                                            JSON] or "resume" [log, args JSON]
//                                                            makes table `key`; "open", "receive",
//                                                            "advance", "rematch", "log", "hands",
//                                                            "entry" call it (JSON text back);
//                                                            "drop" forgets it
//   worker → main  {id, ok: true, result} | {id, ok: false, error: "message"}
//                  {type: "status", stage: "pyodide" | "wheel" | "ready" | "failed", detail}
// Requests are answered in order; a request sent before "init" finished waits for it.

let pyodide = null;
let clientModule = null;
let trackerModule = null;
let auditModule = null; // paiju.log.audit_json, imported at the first audit (a game never needs it)
let practiceModule = null; // paiju.practice, imported at the first practice table
const practices = new Map(); // key → PracticeJson (a PyProxy): the practice tables run here
let ready = null; // the promise of init
const seats = new Map(); // key → SeatClient (a PyProxy)
const trackers = new Map(); // key → TrackerClient (a PyProxy): the seat's card counter

function status(stage, detail = null) {
  self.postMessage({ type: "status", stage, detail });
}

// Pyodide's files and the wheel under the versioned URLs the gateway names in /versions.json
// ({"/pyodide/": "/pyodide/~<hash>/", …}; docs/services.md, "Static files"): the browser keeps
// them for a year without asking again, and so keeps V8's compiled code of the 9.6 MB wasm too
// (a revalidated response loses it: the next visit compiles the wasm again). A new Pyodide or a
// rebuilt wheel gets a new hash, hence a new URL. Without the manifest, the plain URLs (ETag and
// `Cache-Control: no-cache`: revalidated on each visit).
async function versioned(urls) {
  try {
    const response = await fetch(new URL("/versions.json", urls[0]), { cache: "no-cache" });
    if (!response.ok) return urls;
    const prefixes = await response.json();
    return urls.map((href) => {
      const url = new URL(href);
      const plain = Object.keys(prefixes).find((prefix) => url.pathname.startsWith(prefix));
      if (plain) url.pathname = prefixes[plain] + url.pathname.slice(plain.length);
      return url.href;
    });
  } catch {
    return urls;
  }
}

// A file of /pyodide/ or /wheels/: a versioned URL from the browser's cache as it is, a plain one
// revalidated (`cache: "no-cache"`), even a copy cached under older headers.
function fetchServed(url) {
  return fetch(url, { cache: url.includes("/~") ? "default" : "no-cache" });
}

// The wheel, fetched at once beside Pyodide's own files (it is small, and Pyodide needs a second
// or more to start), so that its bytes are there when Pyodide is.
async function fetchWheel(wheel) {
  const response = await fetchServed(wheel);
  if (!response.ok) throw new Error(`the engine wheel ${wheel}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// The snapshot `make wheel` made of Python with this wheel's engine imported
// (shared-engine/tools/snapshot.mjs): its memory, if it was made from these very wheel bytes;
// else null (none served, or another wheel's), and Python starts by itself.
async function snapshotOf(url, wheelBytes) {
  try {
    const response = await fetchServed(url);
    if (!response.ok) return null;
    const [file, wheel] = await Promise.all([response.arrayBuffer(), wheelBytes]);
    const bytes = new Uint8Array(file);
    const end = bytes.indexOf(10, 0);
    const header = new TextDecoder().decode(bytes.subarray(0, Math.max(end, 0)));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", wheel));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    if (header !== `paiju-snapshot ${hex}`) {
      console.warn("the engine snapshot is not of this wheel: Python starts without it");
      return null;
    }
    return bytes.subarray(end + 1);
  } catch {
    return null;
  }
}

async function init({ pyodide: plainIndexURL, wheel: plainWheel, snapshot: plainSnapshot }) {
  const t0 = performance.now();
  status("pyodide");
  const [indexURL, wheel, snapshotURL] = await versioned([plainIndexURL, plainWheel, plainSnapshot]);
  const wheelBytes = fetchWheel(wheel);
  wheelBytes.catch(() => {}); // awaited below; a failure is reported there, not as unhandled
  const snapshot = snapshotOf(snapshotURL, wheelBytes);
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const options = {
    indexURL,
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => console.warn(`[python] ${line}`),
  };
  const memory = await snapshot;
  pyodide = null;
  if (memory) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: memory });
    } catch (err) {
      console.warn("the engine snapshot did not load: Python starts without it", err);
    }
  }
  const fromSnapshot = pyodide !== null;
  pyodide ??= await loadPyodide(options);
  const t1 = performance.now();
  status("wheel");
  const buffer = await wheelBytes;
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  // unpackArchive wants a Uint8Array (an ArrayBuffer view), not a Node Buffer.
  pyodide.unpackArchive(new Uint8Array(buffer), "wheel", { extractDir: sitePackages });
  const t2 = performance.now();
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  clientModule = pyodide.pyimport("paiju.client");
  trackerModule = pyodide.pyimport("paiju.tracker");
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  const t3 = performance.now();
  const timings = { pyodide: t1 - t0, wheel: t2 - t1, import: t3 - t2, total: t3 - t0, snapshot: fromSnapshot };
  status("ready", { ...timings, python });
  return { python, timings };
}

function seatClient(key) {
  const client = seats.get(key);
  if (!client) throw new Error(`no engine for ${key}: send "seat" first`);
  return client;
}

const PRACTICE_CALLS = new Set(["open", "receive", "advance", "rematch", "log", "hands", "entry"]);

const OPS = {
  seat({ key, config }) {
    seats.get(key)?.destroy();
    seats.set(key, clientModule.SeatClient(JSON.stringify(config)));
    trackers.get(key)?.destroy();
    trackers.set(key, trackerModule.TrackerClient(JSON.stringify(config)));
    return true;
  },
  view({ key, view }) {
    const text = JSON.stringify(view);
    const out = JSON.parse(seatClient(key).update(text));
    // every view of the seat, in order, goes to its counter: it counts the plays it sees
    const tracker = trackers.get(key);
    out.tracker = tracker ? JSON.parse(tracker.update(text)) : null;
    return out;
  },
  check({ key, cards, reading }) {
    const t0 = performance.now();
    const out = JSON.parse(seatClient(key).check(JSON.stringify(cards ?? null), JSON.stringify(reading ?? null)));
    out.us = Math.round((performance.now() - t0) * 1000);
    return out;
  },
  readings({ key, cards }) {
    return JSON.parse(seatClient(key).readings(JSON.stringify(cards)));
  },
  order({ key, cards, mode }) {
    return JSON.parse(seatClient(key).order(JSON.stringify(cards), mode || "rank"));
  },
  replay({ config, events }) {
    return JSON.parse(clientModule.replay_json(JSON.stringify(config), JSON.stringify(events)));
  },
  audit({ text, lang }) {
    auditModule ??= pyodide.pyimport("paiju.log.audit_json");
    return JSON.parse(auditModule.audit_log(String(text ?? ""), lang || "both"));
  },
  practice({ key, method, args = [] }) {
    if (method === "start" || method === "resume") {
      practiceModule ??= pyodide.pyimport("paiju.practice");
      practices.get(key)?.destroy();
      practices.set(key, practiceModule.PracticeJson[method](...args));
      return true;
    }
    const table = practices.get(key);
    if (!table) throw new Error(`no practice table ${key}: send "start" or "resume" first`);
    if (method === "drop") {
      table.destroy();
      practices.delete(key);
      return true;
    }
    if (!PRACTICE_CALLS.has(method)) throw new Error(`unknown practice call ${method}`);
    return table[method](...args);
  },
  drop({ key }) {
    seats.get(key)?.destroy();
    seats.delete(key);
    trackers.get(key)?.destroy();
    trackers.delete(key);
    return true;
  },
};

self.onmessage = async (message) => {
  const request = message.data;
  const { id, op } = request;
  try {
    let result;
    if (op === "init") {
      ready ??= init(request);
      result = await ready;
    } else {
      if (!ready) throw new Error("the engine is not started: send init first");
      await ready;
      const handler = OPS[op];
      if (!handler) throw new Error(`unknown engine op ${op}`);
      result = handler(request);
    }
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    if (op === "init") status("failed", String(err?.message ?? err));
    self.postMessage({ id, ok: false, error: String(err?.message ?? err) });
  }
};
