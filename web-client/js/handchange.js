// What happened to my hand that I did not do: between two views of one hand, the cards that came
// into it (never by my own play: cards taken up from the table, a tribute returned, a card picked
// up) and those that left it at the same moment (a tribute paid, cards handed back). The table
// shows them on my seat until I next play.

/** The cards that left `before` and those that came into `after` (card codes; a multiset
 * difference, a pack may hold a card several times), each in its hand's order. */
export function handChange(before, after) {
  const left = new Map();
  for (const code of before) left.set(code, (left.get(code) ?? 0) + 1);
  const came = [];
  for (const code of after) {
    const held = left.get(code) ?? 0;
    if (held > 0) left.set(code, held - 1);
    else came.push(code);
  }
  const went = before.filter((code) => {
    const n = left.get(code) ?? 0;
    if (n === 0) return false;
    left.set(code, n - 1);
    return true;
  });
  return { went, came };
}

/** The note a new view leaves on my seat: a change that brought cards is shown (with what left
 * at the same moment); one that only took cards away is my own play, after which the note has
 * been seen; a new hand, or a first view of my hand (I sat down), starts without one. `note`: the
 * note so far (null: none). */
export function nextHandNote(note, previous, view) {
  // no hand before (a spectator's view, then my seat's): nothing came, I sat down
  if (!previous?.hand || previous.hand_no !== view.hand_no || !view.hand) return null;
  const change = handChange(previous.hand, view.hand);
  if (change.came.length) return change;
  return change.went.length ? null : note;
}
