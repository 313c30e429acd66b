// The gateway's HTTP API (docs/services.md): JSON in and out; errors are {code, zh, en, cards}.

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.en || body?.zh || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? "http";
    this.zh = body?.zh ?? `请求失败（HTTP ${status}）`;
    this.en = body?.en ?? `The request failed (HTTP ${status})`;
    this.cards = body?.cards ?? [];
  }
}

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
export const table = (id) => api(`/api/tables/${encodeURIComponent(id)}`);

// Waits (ms, before jitter) before resending a create or a join whose answer said the service
// was unavailable or never came: the request id makes the resend safe.
const RETRY_WAITS = [300, 1000, 2500];

/** A request that the server applies once however often it is sent (its body carries a
 * `request_id`): resent, unchanged, after a network failure or an `unavailable` or `conflict`
 * answer (a few times, with jitter). */
async function idempotent(path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api(path, { body });
    } catch (err) {
      const retryable = err.status === 0 || err.code === "unavailable" || err.code === "conflict";
      if (!retryable || attempt >= RETRY_WAITS.length) throw err;
      const wait = RETRY_WAITS[attempt] * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Create a table. A retry with the same `requestId` names the same table, never a second one. */
export const createTable = (game, variant, players, options = {}, requestId = newRequestId()) =>
  idempotent("/api/tables", { game, variant, players, options, request_id: requestId });
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
export const addBots = (id, seats = null) =>
  api(`/api/tables/${encodeURIComponent(id)}/bots`, { body: seats === null ? {} : { seats } });
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

export function playerName() {
  let name = localStorage.getItem("paiju.name");
  if (!name) {
    name = `玩家${Math.floor(1000 + Math.random() * 9000)}`;
    localStorage.setItem("paiju.name", name);
  }
  return name;
}

export function setPlayerName(name) {
  const clean = name.trim().slice(0, 32);
  if (clean) localStorage.setItem("paiju.name", clean);
}
