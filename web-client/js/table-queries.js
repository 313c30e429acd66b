// What a live table's state says (table-state.js): whose turn it is to act on, the words among my
// moves, the selection as cards. Pure functions of the state, for the reducer and the renderers.

import { seatToMove } from "./table-phases.js";

/** @typedef {import("./table-state.js").TableState} TableState */

/** The view says my seat is to move (to play, bid or call) and the table is at rest.
 * @param {TableState} s */
export const myTurnInView = (s) => !!s.view && s.settled && s.seat !== null && seatToMove(s.view) === s.seat;

/** My turn, with its engine work done: mine to act on.
 * @param {TableState} s */
export const isMyTurn = (s) => !s.working && myTurnInView(s);

/** The field of a move that holds the word said (a bid's word, a called card): its one field
 * besides type and seat; null for a play or a pass.
 * @param {any} move @returns {string | null} */
export function wordField(move) {
  if (move.type === "play" || move.type === "pass") return null;
  const fields = Object.keys(move).filter((k) => k !== "type" && k !== "seat");
  return fields.length === 1 ? fields[0] : null;
}

/** The legal moves that are words, not plays of cards (empty unless a seat must speak).
 * @param {any[]} moves */
export const spokenOf = (moves) => moves.filter((m) => wordField(m) !== null);

/** The selected cards, in the hand's order.
 * @param {TableState} s @returns {string[]} */
export const selectedCodes = (s) => s.selected.map((i) => s.hand[i]);

/** The number of cards every legal play has, when they all have the same (and more than one):
 * the selection must be exactly that many (a burial, a follow to a set led).
 * @param {TableState} s @returns {number | null} */
export function selectionSize(s) {
  const sizes = new Set(s.moves.filter((m) => m.type === "play").map((m) => m.cards.length));
  const [size] = sizes;
  return sizes.size === 1 && size > 1 ? size : null;
}

/** The engine's verdict asks the player to choose how the selection is read. @param {any} check */
export const ambiguous = (check) => check?.ok === false && check.error?.code === "ambiguous_reading";

/** The indices in `hand` of `codes` (a card held twice is picked twice).
 * @param {string[]} hand @param {string[]} codes @returns {number[]} */
export function indicesOf(hand, codes) {
  const used = new Set();
  for (const code of codes) {
    const i = hand.findIndex((c, j) => c === code && !used.has(j));
    if (i >= 0) used.add(i);
  }
  return [...used].sort((a, b) => a - b);
}
