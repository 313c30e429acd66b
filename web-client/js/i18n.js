// Chinese first, English on request. t("key", {params}) picks the current language; the choice
// is kept in localStorage. Engine and server errors carry both languages themselves ({zh, en}).
// These are the page's own words only: everything a game names (its phases, combinations, score
// reasons, events, the words its seats say, its view's facts) comes with the game's words from the
// catalogue (words.js).

import { LOBBY_STRINGS } from "./strings-lobby.js";
import { REPLAY_STRINGS } from "./strings-replay.js";
import { ROOM_STRINGS } from "./strings-room.js";
import { TABLE_STRINGS } from "./strings-table.js";

// [Chinese, English] by key: the page's frame here, each area's in its own module
const STRINGS = {
  appName: ["牌局", "Paiju"],
  tagline: ["地方扑克，在浏览器里即点即玩", "Regional Chinese card games, in your browser"],
  langSwitch: ["EN", "中文"],
  langSwitchTitle: ["Switch to English", "切换到中文"],
  lobby: ["大厅", "Lobby"],
  engineIdle: ["引擎未启动", "Engine idle"],
  enginePyodide: ["正在加载引擎…", "Loading the engine…"],
  engineWheel: ["正在安装规则引擎…", "Installing the rules engine…"],
  engineReady: ["规则引擎就绪", "Rules engine ready"],
  engineFailed: ["引擎加载失败", "The engine failed to load"],
  ...LOBBY_STRINGS,
  ...TABLE_STRINGS,
  ...REPLAY_STRINGS,
  ...ROOM_STRINGS,
};

let lang = localStorage.getItem("paiju.lang") === "en" ? "en" : "zh";
const listeners = new Set();

export function getLang() {
  return lang;
}

export function setLang(next) {
  lang = next === "en" ? "en" : "zh";
  localStorage.setItem("paiju.lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const listener of listeners) listener(lang);
}

export function onLang(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function pick(pair, fallback) {
  if (!pair) return fallback;
  return lang === "zh" ? pair[0] : pair[1];
}

export function t(key, params = {}) {
  const text = pick(STRINGS[key], key);
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Text in both languages from the server or the engine: {zh, en} → the current one. */
export function both(obj) {
  if (!obj) return "";
  return lang === "zh" ? (obj.zh ?? obj.en ?? "") : (obj.en ?? obj.zh ?? "");
}

document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
