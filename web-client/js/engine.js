// The page's side of the engine worker (engine-worker.js): one worker for the whole page,
// started at page load, and a promise per request.

import { ENGINE_SNAPSHOT, ENGINE_WHEEL, PYODIDE_URL } from "./config.js";

const listeners = new Set();
let worker = null;
let nextId = 1;
const pending = new Map();

export const engine = {
  stage: "idle", // idle → pyodide → wheel → ready | failed
  detail: null,
  startedAt: null, // ms since navigation start when the page started the worker
  readyAt: null, // ms since navigation start when the engine became ready
  python: null,
  ready: null, // a promise, resolved when the engine is ready
};

function setStage(stage, detail = null) {
  engine.stage = stage;
  engine.detail = detail;
  if (stage === "ready") {
    engine.readyAt = performance.now();
    engine.python = detail?.python ?? null;
    engine.timings = detail;
    performance.mark("paiju:engine-ready");
  }
  for (const listener of listeners) listener(engine);
}

export function onEngine(listener) {
  listeners.add(listener);
  listener(engine);
  return () => listeners.delete(listener);
}

function call(op, payload = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, ...payload });
  });
}

// Called once at boot, whatever the route (main.js), before the lobby asks the gateway for
// anything: Pyodide loads while the player looks at the lobby, and is ready when they sit.
export function startEngine() {
  if (engine.ready) return engine.ready;
  engine.startedAt = performance.now();
  worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    if (data.type === "status") {
      setStage(data.stage, data.detail);
      return;
    }
    const waiter = pending.get(data.id);
    if (!waiter) return;
    pending.delete(data.id);
    if (data.ok) waiter.resolve(data.result);
    else waiter.reject(new Error(data.error));
  };
  worker.onerror = (event) => {
    setStage("failed", event.message || "worker error");
  };
  const origin = location.origin;
  engine.ready = call("init", {
    pyodide: new URL(PYODIDE_URL, origin).href,
    wheel: new URL(ENGINE_WHEEL, origin).href,
    snapshot: new URL(ENGINE_SNAPSHOT, origin).href,
  }).then((result) => {
    engine.python = result.python;
    engine.timings = result.timings;
    return engine;
  });
  engine.ready.catch(() => {}); // a failure is shown through the stage; callers await it too
  return engine.ready;
}

/** One seat's (or a spectator's) engine at one table: the state rebuilt from each view. */
export class SeatEngine {
  constructor(key, config) {
    this.key = key;
    this.config = config;
    this.started = engine.ready.then(() => call("seat", { key, config }));
  }

  async view(view) {
    await this.started;
    return call("view", { key: this.key, view });
  }

  /** The verdict on a selection (null: a pass), read as `reading` ({kind, stands_for}) when the
   * player chose one; an ambiguous selection's verdict lists its `readings`. */
  async check(cards, reading = null) {
    await this.started;
    return call("check", { key: this.key, cards, reading });
  }

  /** Every reading under which the selection may be played now, the game's default first. */
  async readings(cards) {
    await this.started;
    return call("readings", { key: this.key, cards });
  }

  async order(cards, mode = "rank") {
    await this.started;
    return call("order", { key: this.key, cards, mode });
  }

  drop() {
    this.started.then(() => call("drop", { key: this.key })).catch(() => {});
  }
}

export async function replaySteps(config, events) {
  await engine.ready;
  return call("replay", { config, events });
}

/** `paiju audit` of a log file's text, run by the engine in the worker
 * (paiju.log.audit_json.audit_log): {verdict: "sound" | "incomplete" | "failed", checks, findings,
 * lines, …}, each text in `lang` ("zh", "en") or, by default, as {zh, en}. Nothing leaves the
 * browser. */
export async function auditLog(text, lang = "both") {
  await engine.ready;
  return call("audit", { text, lang });
}

/** A call to the practice table `key` run in the worker (paiju.practice.PracticeJson): "start"
 * or "resume" make it, "drop" forgets it; the others answer its JSON text. */
export async function practiceCall(key, method, ...args) {
  await engine.ready;
  return call("practice", { key, method, args });
}
