// The page: starts the engine worker at once, then routes by the URL's hash.
//
//   #/                         the lobby
//   #/rules/<game>             a game's full rules
//   #/table/<id>               a table: your seat if this browser holds its token, else watching
//   #/watch/<id>               a table, watching (a spectator's public view)
//   #/replay/<id>?step=N&speed=S   a finished game, at step N (a link anyone can open)
//   #/verify                   verify a game in your own browser: audit a dropped log file
//   #/verify/<id>              the same for a finished table's log, fetched from the gateway
//   #/practice/<game>[/<variant>]  a practice table against bots, run in this browser (offline too)
//
// Hash routes need nothing from the server but index.html, so every link works offline from
// the running gateway, and a shared replay link opens at its step.

import { isMuted, onMute, setMuted } from "./audio.js";
import { suitSprite } from "./cards.js";
import { $ } from "./dom.js";
import { engine, onEngine, startEngine } from "./engine.js";
import { getLang, onLang, setLang, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountPractice } from "./practice.js";
import { isOnline, keepForOffline, onOnline } from "./offline.js";
import { mountReplay } from "./replay.js";
import { mountRules } from "./rules.js";
import { mountTable } from "./table.js";
import { mountVerify } from "./verify.js";

/** @type {Array<[RegExp, (m: RegExpMatchArray) => (el: HTMLElement, q: URLSearchParams) => any]>} */
const ROUTES = [
  [/^\/?$/, () => mountLobby],
  [/^\/rules\/([\w-]+)$/, (m) => (el, q) => mountRules(el, m[1], q)],
  [/^\/table\/([\w-]+)$/, (m) => (el, q) => mountTable(el, m[1], { watch: false, query: q })],
  [/^\/watch\/([\w-]+)$/, (m) => (el, q) => mountTable(el, m[1], { watch: true, query: q })],
  [/^\/replay\/([\w-]+)$/, (m) => (el, q) => mountReplay(el, m[1], q)],
  [/^\/verify(?:\/([\w-]+))?$/, (m) => (el) => mountVerify(el, m[1] ?? null)],
  [/^\/practice\/([\w-]+)(?:\/([\w-]+))?$/, (m) => (el, q) => mountPractice(el, m[1], m[2], q)],
];

let current = null; // {unmount, rerender}
let currentPath = null;

export function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, query = ""] = raw.split("?");
  return { path, query: new URLSearchParams(query) };
}

function route() {
  const { path, query } = parseHash();
  if (current && path === currentPath && current.onQuery) {
    current.onQuery(query); // the same page, another step: no remount
    return;
  }
  current?.unmount?.();
  current = null;
  currentPath = path;
  const app = $("#app");
  app.replaceChildren();
  window.scrollTo(0, 0);
  for (const [pattern, make] of ROUTES) {
    const match = path.match(pattern);
    if (match) {
      current = make(match)(app, query) ?? null;
      document.body.dataset.route = path.split("/")[1] || "lobby";
      return;
    }
  }
  location.hash = "#/";
}

function renderChrome() {
  $("#brand-name").textContent = t("appName");
  $("#nav-lobby").textContent = t("lobby");
  const button = $("#lang-switch");
  button.textContent = t("langSwitch");
  button.title = t("langSwitchTitle");
  // the switch names the other language in that language (and is marked so)
  button.lang = getLang() === "zh" ? "en" : "zh-CN";
  document.querySelector(".brand")?.setAttribute("aria-label", t("appName"));
  document.querySelector(".seal")?.setAttribute("lang", "zh-CN");
  renderEngine(engine);
  renderMute();
  renderNet();
}

function renderNet() {
  const el = $("#net-status");
  el.hidden = isOnline();
  el.textContent = t("netOffline");
  el.title = t("netOfflineTitle");
}

function renderMute() {
  const button = $("#mute-switch");
  const muted = isMuted();
  // a speaker drawn in SVG (no emoji font needed), with waves or a cross
  const waves = muted ? '<path d="M15 9l6 6M21 9l-6 6"/>' : '<path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13"/>';
  button.innerHTML = `<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${waves}</svg>`;
  button.setAttribute("aria-pressed", muted ? "true" : "false");
  button.setAttribute("aria-label", muted ? t("unmute") : t("mute"));
  button.title = muted ? t("unmute") : t("mute");
  button.dataset.muted = muted ? "1" : "";
}

function renderEngine(state) {
  const el = $("#engine-status");
  el.dataset.stage = state.stage;
  const text = {
    idle: t("engineIdle"),
    pyodide: t("enginePyodide"),
    wheel: t("engineWheel"),
    ready: t("engineReady"),
    failed: t("engineFailed"),
  }[state.stage];
  el.textContent = text;
  el.title = state.stage === "failed" ? String(state.detail) : state.python ? `Python ${state.python}` : "";
  document.body.dataset.engine = state.stage;
}

function boot() {
  document.body.prepend(suitSprite());
  $("#lang-switch").addEventListener("click", () => setLang(getLang() === "zh" ? "en" : "zh"));
  $("#mute-switch").addEventListener("click", () => setMuted(!isMuted()));
  onMute(renderMute);
  onLang(() => {
    renderChrome();
    current?.rerender?.();
  });
  onEngine(renderEngine);
  onOnline(renderNet);
  renderChrome();
  const engineReady = startEngine();
  engineReady.catch((err) => console.error("the engine failed to start:", err.message));
  keepForOffline(engineReady);
  window.addEventListener("hashchange", route);
  route();
}

boot();
