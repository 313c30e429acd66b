// The gateway's HTTP API (docs/services.md): JSON in and out; errors are {code, zh, en, cards}.

import * as backoff from "./backoff.js";
import { getLang } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.en || body?.zh || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? "http";
    this.zh = body?.zh ?? `请求失败（HTTP ${status}）`;
    this.en = body?.en ?? `The request failed (HTTP ${status})`;
    this.cards = body?.cards ?? [];
    this.retryAfter = body?.retry_after ?? 0; // seconds (overloaded: when to try again)
  }
}

/** @param {string} path @param {{ method?: string, body?: any, token?: string }} [options] */
export async function api(path, { method, body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method: method ?? (body !== undefined ? "POST" : "GET"),
      headers,
      body: body !== undefined ? JSON.stringify(body) : undefined,
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, { code: "network", zh: "无法连接服务器", en: "Cannot reach the server" });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const games = () => api("/api/games");
export const tables = (status = "live") => api(`/api/tables?status=${status}`);
/** Finished tables, newest first: `game` (an id) and `player` (part of a name) search them,
 * `before` (the last one's finished_at) gives the next page. */
export const history = ({ game = "", player = "", before = null, pageSize = 10 } = {}) => {
  const query = new URLSearchParams({ status: "finished", page_size: String(pageSize) });
  if (game) query.set("game", game);
  if (player.trim()) query.set("player", player.trim());
  if (before !== null) query.set("before", String(before));
  return api(`/api/tables?${query}`);
};
/** Every hand scored so far at a table (live or finished), with the running totals. */
export const hands = (id) => api(`/api/tables/${encodeURIComponent(id)}/hands`);
export const table = (id) => api(`/api/tables/${encodeURIComponent(id)}`);

// Resends of a create or a join whose answer said the service was unavailable, overloaded or
// busy, or never came: the request id makes the resend safe.
const RESENDS = 3;
const RETRYABLE = new Set(["unavailable", "overloaded", "conflict"]);

/** A request that the server applies once however often it is sent (its body carries a
 * `request_id`): resent, unchanged, after a network failure or an `unavailable`, `overloaded`
 * or `conflict` answer (a few times, backing off: backoff.js). */
async function idempotent(path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api(path, { body });
    } catch (err) {
      const retryable = err.status === 0 || RETRYABLE.has(err.code);
      if (!retryable || attempt >= RESENDS) throw err;
      const wait = backoff.delay(backoff.RESEND, attempt, { retryAfter: err.retryAfter });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Create a table. A retry with the same `requestId` names the same table, never a second one.
 * `clock`: seconds per kind of decision (null: the game's defaults). */
export const createTable = (game, variant, players, options = {}, clock = null, requestId = newRequestId()) =>
  idempotent("/api/tables", { game, variant, players, options, ...(clock ? { clock } : {}), request_id: requestId });
/** Take a seat. `seed` is this player's own contribution to the deal (the provably fair
 * shuffle mixes every seat's seed with the server's committed one). A retry with the same
 * `requestId` (and the same name, seat and seed) answers the same seat and token. */
export const joinSeat = (id, name, seat = null, seed = null, requestId = newRequestId()) => {
  const body = { name, request_id: requestId };
  if (seat !== null) body.seat = seat;
  if (seed) body.seed = seed;
  return idempotent(`/api/tables/${encodeURIComponent(id)}/seats`, body);
};

/** A fresh random seed for the deal: 128 bits from the browser's CSPRNG, as hex. */
export function newSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh id for one create or join: 128 random bits as hex. Keep it as secret as a seat
 * token: a join resent with it answers the seat's token. */
export function newRequestId() {
  return newSeed();
}
/** Fill empty seats with bots (`seats` null: every empty one), at `level` (an id of the catalogue's
 * `levels`; null: the default): the table's owner only (his token, kept by `saveOwnerToken`). */
export const addBots = (id, seats = null, level = null, owner = ownerToken(id)) =>
  api(`/api/tables/${encodeURIComponent(id)}/bots`, {
    body: { ...(seats === null ? {} : { seats }), ...(level === null ? {} : { level }) },
    token: owner,
  });
/** Close an open table before it starts: the owner only. */
export const closeTable = (id, owner = ownerToken(id)) =>
  api(`/api/tables/${encodeURIComponent(id)}/close`, { method: "POST", token: owner });
/** Give up my seat before the match starts (the seat opens again); forgets its token here. */
export async function leaveSeat(id) {
  const mine = seatToken(id);
  const out = await api(`/api/tables/${encodeURIComponent(id)}/leave`, { method: "POST", token: mine?.token });
  forgetSeat(id);
  return out;
}
/** 再来一局: the same seat at the finished table's linked new table, with the same token (kept
 * here under the new table's id, as is the owner token when this browser owns the table). */
export async function rematch(id) {
  const mine = seatToken(id);
  const out = await api(`/api/tables/${encodeURIComponent(id)}/rematch`, { method: "POST", token: mine?.token });
  saveSeatToken(out.table, out.seat, mine.token);
  const owner = ownerToken(id);
  if (owner) saveOwnerToken(out.table, owner);
  return out;
}
/** 不了: my seat at the rematch table of finished table `id` given up (the same token as there),
 * for its owner to fill with a bot or another player; 再来一局 later takes it again if free. */
export async function declineRematch(id, rematchId) {
  const mine = seatToken(id);
  return api(`/api/tables/${encodeURIComponent(rematchId)}/leave`, { method: "POST", token: mine?.token });
}
export const tableLog = (id) => api(`/api/tables/${encodeURIComponent(id)}/log`);

// Seat tokens, per table, kept in this browser so that a reload resumes the seat.
const TOKENS = "paiju.seats";

function readTokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "{}");
  } catch {
    return {};
  }
}

export function seatToken(tableId) {
  return readTokens()[tableId] ?? null;
}

export function saveSeatToken(tableId, seat, token) {
  const all = readTokens();
  all[tableId] = { seat, token, at: Date.now() };
  const entries = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  localStorage.setItem(TOKENS, JSON.stringify(Object.fromEntries(entries)));
}

function forgetSeat(tableId) {
  const all = readTokens();
  delete all[tableId];
  localStorage.setItem(TOKENS, JSON.stringify(all));
}

// Owner tokens, per table, beside the seat tokens: the creator's (bots, closing the table).
const OWNERS = "paiju.owners";

function readOwners() {
  try {
    return JSON.parse(localStorage.getItem(OWNERS) || "{}");
  } catch {
    return {};
  }
}

export function ownerToken(tableId) {
  return readOwners()[tableId]?.token ?? null;
}

export function saveOwnerToken(tableId, token) {
  const all = readOwners();
  all[tableId] = { token, at: Date.now() };
  const entries = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  localStorage.setItem(OWNERS, JSON.stringify(Object.fromEntries(entries)));
}

// The player's name: the one typed in the lobby, else 玩家NNNN / PlayerNNNN (the page's language)
// with a number drawn once and kept.
const NAME = "paiju.name";
const NAME_NO = "paiju.nameNo";

function defaultName() {
  let n = localStorage.getItem(NAME_NO);
  if (!/^\d{4}$/.test(n ?? "")) {
    n = String(Math.floor(1000 + Math.random() * 9000));
    localStorage.setItem(NAME_NO, n);
  }
  return getLang() === "zh" ? `玩家${n}` : `Player${n}`;
}

export function playerName() {
  return localStorage.getItem(NAME) || defaultName();
}

/** Keep the typed name (trimmed, at most 32 characters); an empty one goes back to the default. */
export function setPlayerName(name) {
  const clean = name.trim().slice(0, 32);
  if (clean && clean !== defaultName()) localStorage.setItem(NAME, clean);
  else localStorage.removeItem(NAME);
}
