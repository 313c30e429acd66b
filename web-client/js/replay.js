// The replay of a finished game: its full log from the gateway (GET /api/tables/<id>/log), or a
// practice table's from this browser's keeping (practice-store.js),
// replayed by the engine in the worker into one public view per step, every hand open. Step
// forward and back, scrub the timeline, play at a chosen speed; the URL holds the step
// (#/replay/<id>?step=N&speed=S), so a link to any moment can be shared.

import * as api from "./api.js";
import { renderBoard } from "./board.js";
import { scoreSheet } from "./score-sheet.js";
import { PlayMemory, seatName } from "./seating.js";
import { startClocks } from "./turn-clocks.js";
import { handOver } from "./table-phases.js";
import { cardText } from "./cards.js";
import { clear, h } from "./dom.js";
import { engine, replaySteps } from "./engine.js";
import { isPracticeTable, practiceLog } from "./practice-store.js";
import { both, t } from "./i18n.js";
import { catalog, gameName, variantName, variantOf } from "./catalog.js";
import { copyText, toast } from "./ui.js";
import { auctionWords, fill, kindName, pick, spoken, valueName, wordsOf } from "./words.js";

const SPEEDS = [0.5, 1, 2, 4];
const BASE_MS = 900; // one step a this many ms at speed 1

/** An event as the log tells it, by the game's words (`ctx.words`): its line, with {name} the
 * event's seat, {hand} its hand, {cards} / {card} its cards, {kind} its combination, and a field
 * named like a command type the word said (as said after the auction before it: `ctx.view` is the
 * view after the event, `ctx.saidPhase` the phase it was said in). An event the words do not name
 * is shown by its type. */
export function describeEvent(event, ctx) {
  if (!event) return t("ev_start");
  const words = ctx.words ?? {};
  const line = words.events?.[event.type];
  if (!line) return event.type;
  const params = { name: seatName(ctx, event.seat ?? event.leader), hand: event.hand_no };
  if (Array.isArray(event.cards)) params.cards = event.cards.map(cardText).join(" ");
  if (typeof event.card === "string") params.card = cardText(event.card);
  if (event.kind) params.kind = kindName(words, event.kind);
  if (typeof event.level === "string") params.level = valueName(words, "level", event.level); // a bot's
  for (const [field, value] of Object.entries(event)) {
    if (words.commands?.[field] && typeof value === "string") {
      const said = auctionWords(words, ctx.view, field); // this word is the last of them
      params[field] = spoken(words, field, value, said.slice(0, -1), "button", ctx.saidPhase ?? null);
    }
  }
  return fill(pick(line), params);
}

export function mountReplay(root, tableId, query) {
  const s = {
    log: null,
    meta: null,
    game: null,
    steps: null,
    memories: null,
    step: clampInt(query.get("step"), 0),
    speed: SPEEDS.includes(Number(query.get("speed"))) ? Number(query.get("speed")) : 1,
    playing: false,
    timer: null,
    dead: false,
  };
  const clocks = startClocks();
  const title = h("h1.table-title");
  const sub = h("p.table-sub");
  const boardHost = h("div.board-host#board");
  const sheetHost = h("div.replay-sheet");
  const slider = h("input#replay-slider", { type: "range", min: 0, max: 0, value: 0, step: 1, "aria-label": "timeline" });
  const stepLabel = h("span.step-label#step-label");
  const eventLabel = h("p.event-label#event-label");
  const btn = (id, label, onClick) => h(`button.button.icon#${id}`, { type: "button", title: label, "aria-label": label, on: { click: onClick } });
  const setIcon = (button, name) => {
    if (button.dataset.icon !== name) {
      button.dataset.icon = name;
      button.replaceChildren(icon(name));
    }
  };
  const firstBtn = btn("replay-first", t("start"), () => go(0));
  const backBtn = btn("replay-back", t("back"), () => go(s.step - 1));
  const playBtn = btn("replay-play", t("playPause"), togglePlay);
  const fwdBtn = btn("replay-forward", t("forward"), () => go(s.step + 1));
  const lastBtn = btn("replay-last", t("end"), () => go(s.steps.length - 1));
  const speedLabel = h("span", null, t("speed"));
  const backLink = h("a.back", { href: "#/" }, `← ${t("backToLobby")}`);
  const verifyLink = h("a.button.ghost.small.verify-link#replay-verify", { href: `#/verify/${tableId}` }, t("verifyInBrowser"));
  const logTitle = h("h2", null, t("log"));
  const speedSelect = h(
    "select#replay-speed",
    { "aria-label": t("speed"), on: { change: (e) => setSpeed(Number(e.target.value)) } },
    SPEEDS.map((v) => h("option", { value: v, selected: v === s.speed }, `${v}×`)),
  );
  const copyBtn = h("button.button.ghost.small#replay-copy", { type: "button", on: { click: copyLink } });
  const logList = h("ol.event-log#event-log");
  const controls = h(
    "div.replay-controls",
    null,
    h("div.transport", null, firstBtn, backBtn, playBtn, fwdBtn, lastBtn),
    h("div.timeline", null, slider, stepLabel),
    h("div.replay-options", null, h("label.speed", null, speedLabel, speedSelect), copyBtn),
  );
  const page = h(
    "div.table-page.replay-page",
    { dataset: { table: tableId, mode: "replay" } },
    h("div.table-head", null, backLink, h("div.table-heading", null, title, sub), verifyLink),
    controls,
    eventLabel,
    h("div.replay-body", null, h("div.replay-main", null, boardHost, sheetHost), h("aside.replay-log", { tabindex: "0", "aria-label": t("log") }, logTitle, logList)),
  );
  root.append(page);
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", onKey);

  function onKey(e) {
    if (e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowLeft") go(s.step - 1);
    else if (e.key === "ArrowRight") go(s.step + 1);
    else if (e.key === " ") {
      e.preventDefault();
      togglePlay();
    }
  }

  async function load() {
    clear(boardHost, h("p.muted.big", null, t("loadingReplay")));
    try {
      const served = () => Promise.all([api.tableLog(tableId), api.table(tableId).catch(() => null)]);
      const kept = async () => {
        const { log, meta } = await practiceLog(tableId); // played in this browser, kept here
        return [log, meta];
      };
      const [[log, meta], games] = await Promise.all([isPracticeTable(tableId) ? kept() : served(), catalog()]);
      s.log = log;
      s.meta = meta;
      s.game = games.find((g) => g.id === log.header.config.game) ?? null;
      s.steps = await replaySteps(log.header.config, log.events);
    } catch (err) {
      clear(boardHost, h("p.error.big", null, `${t("errorPrefix")}${err.zh ? both(err) : err.message}`));
      return;
    }
    if (s.dead) return;
    const memory = new PlayMemory();
    s.memories = s.steps.map((step) => {
      memory.update(step.view);
      return [...memory.last];
    });
    slider.max = String(s.steps.length - 1);
    s.step = Math.min(s.step, s.steps.length - 1);
    renderLog();
    render();
    page.dataset.ready = "1";
  }

  function ctx(view) {
    return {
      view,
      words: wordsOf(s.game),
      me: null,
      bottom: 0,
      names: (s.meta?.seats ?? []).map((seat) => seat.name ?? null),
      kinds: (s.meta?.seats ?? []).map((seat) => seat.kind),
      levels: (s.meta?.seats ?? []).map((seat) => seat.level ?? null),
      openHands: view.phase === "commit" && !view.hand_no ? null : view.hands,
      memory: { last: s.memories?.[s.step] ?? [] },
      turnSince: null,
      mySlot: null,
    };
  }

  function render() {
    const config = s.log?.header.config;
    title.textContent = `${t("replayOf")} · ${gameName(s.game) || config?.game || ""} · ${variantName(variantOf(s.game, config?.variant))}`;
    const dealsOk = s.log?.deals?.every((d) => d.status === "verified");
    sub.textContent = [
      `${t("table")} ${tableId.slice(0, 8)}`,
      t("allHandsOpen"),
      s.log?.deals?.length ? `${t("deals")}${t("colon")}${dealsOk ? t("dealVerified") : s.log.deals.map((d) => d.status).join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(" · ");
    setIcon(firstBtn, "first");
    setIcon(backBtn, "back");
    setIcon(playBtn, s.playing ? "pause" : "play");
    playBtn.title = s.playing ? t("pause") : t("playPause");
    playBtn.setAttribute("aria-label", playBtn.title);
    playBtn.dataset.playing = s.playing ? "1" : "";
    setIcon(fwdBtn, "forward");
    setIcon(lastBtn, "last");
    copyBtn.textContent = t("copyLink");
    if (!s.steps) return;
    const last = s.steps.length - 1;
    const step = s.steps[s.step];
    const c = ctx(step.view);
    slider.value = String(s.step);
    slider.style.setProperty("--progress", `${last ? (100 * s.step) / last : 0}%`);
    stepLabel.textContent = t("step", { i: s.step, n: last });
    eventLabel.textContent = describeEvent(step.event, { ...c, saidPhase: s.steps[s.step - 1]?.view?.phase });
    firstBtn.disabled = backBtn.disabled = s.step === 0;
    fwdBtn.disabled = lastBtn.disabled = s.step === last;
    page.dataset.step = String(s.step);
    page.dataset.last = String(last);
    renderBoard(boardHost, c);
    const ended = handOver(step.view);
    clear(sheetHost, ended ? scoreSheet(c, { final: step.view.phase === "over" }) : null);
    for (const li of logList.children) li.classList.toggle("current", Number(li.dataset.step) === s.step);
    // keep the current event in view inside the log's own box (never scroll the page)
    const current = logList.querySelector("li.current");
    const box = logList.closest(".replay-log");
    if (current && box && box.scrollHeight > box.clientHeight) {
      box.scrollTop = Math.max(0, current.offsetTop - box.clientHeight / 2);
    }
  }

  function renderLog() {
    clear(
      logList,
      s.steps.map((step, i) =>
        step.event && ["deal_committed", "seed_revealed"].includes(step.event.type)
          ? null
          : h("li", { dataset: { step: i }, on: { click: () => go(i) } }, h("span.step-no", null, String(i)), describeEvent(step.event, { ...ctx(step.view), saidPhase: s.steps[i - 1]?.view?.phase })),
      ),
    );
  }

  function go(i, { keepPlaying = false } = {}) {
    if (!s.steps) return;
    const next = Math.max(0, Math.min(s.steps.length - 1, i));
    if (!keepPlaying) stop();
    s.step = next;
    writeUrl();
    render();
  }

  function writeUrl() {
    const query = new URLSearchParams({ step: String(s.step) });
    if (s.speed !== 1) query.set("speed", String(s.speed));
    history.replaceState(null, "", `#/replay/${tableId}?${query}`);
  }

  function togglePlay() {
    if (s.playing) stop();
    else play();
    render();
  }

  function play() {
    if (!s.steps) return;
    if (s.step >= s.steps.length - 1) s.step = 0;
    s.playing = true;
    clearInterval(s.timer);
    s.timer = setInterval(() => {
      if (s.step >= s.steps.length - 1) {
        stop();
        render();
        return;
      }
      go(s.step + 1, { keepPlaying: true });
    }, BASE_MS / s.speed);
  }

  function stop() {
    s.playing = false;
    clearInterval(s.timer);
    s.timer = null;
  }

  function setSpeed(speed) {
    s.speed = speed;
    writeUrl();
    if (s.playing) play();
  }

  async function copyLink() {
    writeUrl();
    const ok = await copyText(location.href);
    toast(ok ? t("copied") : location.href);
  }

  load();
  return {
    unmount() {
      s.dead = true;
      stop();
      clearInterval(clocks);
      document.removeEventListener("keydown", onKey);
    },
    rerender() {
      // the page's fixed words, in the language just chosen
      backLink.textContent = `← ${t("backToLobby")}`;
      verifyLink.textContent = t("verifyInBrowser");
      speedLabel.textContent = t("speed");
      speedSelect.setAttribute("aria-label", t("speed"));
      logTitle.textContent = t("log");
      for (const [button, key] of [[firstBtn, "start"], [backBtn, "back"], [fwdBtn, "forward"], [lastBtn, "end"]]) {
        button.title = t(key);
        button.setAttribute("aria-label", t(key));
      }
      renderLog();
      render();
    },
    onQuery(q) {
      const step = clampInt(q.get("step"), s.step);
      if (step !== s.step) go(step);
    },
  };
}

// Transport icons, drawn here (a font may lack ⏮ ⏭ ⏸).
const ICONS = {
  first: { fill: "M5 5h2.6v14H5z M19 5v14L8.5 12z" },
  back: { stroke: "M15 5l-7 7 7 7" },
  play: { fill: "M8 5v14l11-7z" },
  pause: { fill: "M7 5h3.6v14H7z M13.4 5H17v14h-3.6z" },
  forward: { stroke: "M9 5l7 7-7 7" },
  last: { fill: "M5 5v14l10.5-7z M16.4 5H19v14h-2.6z" },
};

function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  const spec = ICONS[name];
  path.setAttribute("d", spec.fill ?? spec.stroke);
  if (spec.fill) path.setAttribute("fill", "currentColor");
  else {
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "2.6");
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
  }
  svg.append(path);
  return svg;
}

function clampInt(text, fallback) {
  const n = Number.parseInt(text ?? "", 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

export { engine };
