// Who acts in a view, and whether it shows a hand just scored: read from the view's phase alone,
// with no DOM, so that the table's reducer (table-state.js) and its unit tests can ask it.

// The table's own phases, when no seat acts (the deal and its fairness, the end of a hand); in
// every other phase `turn` names the seat to move (to play cards, or to say a word).
const TABLE_PHASES = new Set(["commit", "seeding", "reveal", "over"]);
const HAND_OVER_PHASES = new Set(["reveal", "commit", "seeding", "over"]); // with a last hand

/** The seat that must act now, or null while the table deals or scores.
 * @param {any} view @returns {number | null} */
export function seatToMove(view) {
  return !view || TABLE_PHASES.has(view.phase) ? null : (view.turn ?? null);
}

/** Whether the view shows a hand just scored (its sheet is due): as the engine's `view()` opens
 * every hand.
 * @param {any} view @returns {boolean} */
export function handOver(view) {
  return !!view?.last_hand && HAND_OVER_PHASES.has(view.phase);
}
