// What the server's own list of my legal moves (a state frame's `moves`) answers without the
// engine: the page acts on it while the engine worker is still loading, so that a seat's clock
// never runs down behind "引擎加载中". The engine's reasons, hints and readings come with it.

/** The one play in `moves` of exactly `cards` (card codes, in any order; a pack may hold a card
 * several times), or null: none, or several (a selection the rules read several ways: the
 * engine's readings will ask which). */
export function playOf(moves, cards) {
  const key = (codes) => [...codes].sort().join(" ");
  const wanted = key(cards);
  const found = (moves ?? []).filter((m) => m.type === "play" && Array.isArray(m.cards) && key(m.cards) === wanted);
  return found.length === 1 ? found[0] : null;
}
