// A game's own view keys, as figures and facts to show: what its words name first, then every key
// the words do not name (a number per seat as a figure, a number or a text as a fact), so a game
// added to the engine shows on the board and the score sheet with no new code.

import { shownKeys } from "./words.js";

// View keys every game has (the table's and the climbing core's), drawn in their own way.
const CORE_KEYS = new Set([
  "game", "variant", "players", "phase", "version", "hand_no", "turn", "leader", "commitment",
  "revealed_seed", "seat", "counts", "totals", "hand", "hands", "last_hand", "lead", "actions",
  "out", "benched", "bots",
]);
const isFact = (value) => (typeof value === "number" && value !== 0) || typeof value === "string"; // a count of nothing is no news
const isPerSeat = (view, value) =>
  Array.isArray(value) && value.length === view.players && value.every((v) => typeof v === "number");

/** The game's figures per seat and its facts, as its words name them, then its keys the words do
 * not name. */
export function gameExtras(view, words) {
  const perSeat = Object.keys(words.seat_figures ?? {})
    .filter((key) => isPerSeat(view, view[key]))
    .map((key) => [key, view[key]]);
  const facts = Object.keys(words.facts ?? {})
    .filter((key) => isFact(view[key]))
    .map((key) => [key, view[key]]);
  const shown = shownKeys(words);
  for (const [key, value] of Object.entries(view)) {
    if (CORE_KEYS.has(key) || shown.has(key) || value === null || value === undefined) continue;
    if (isPerSeat(view, value)) perSeat.push([key, value]);
    else if (isFact(value)) facts.push([key, value]);
  }
  return { perSeat, facts };
}
