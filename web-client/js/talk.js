// Table talk and the table's spoken calls, worked out from the views alone (no DOM, no page
// state: node --test runs them). The words a seat may say come from the catalogue
// (words.commands.talk: a fixed list of 快捷语 and emotes, no free text); the view's `talk` holds
// the last few said, each [seat, word, index of its event].

/** The words said since `previous` was shown: those of `view.talk` newer than any `previous`
 * had. None on a first view: what was said before this page came is not news. */
export function freshTalk(previous, view) {
  if (!previous) return [];
  const last = Math.max(-1, ...(previous.talk ?? []).map((said) => said[2]));
  return (view.talk ?? []).filter((said) => said[2] > last);
}

/** The words a seat may say, in the catalogue's order: [word, {button, badge}], phrases first and
 * then emotes (an emote's badge is its symbol, which its button names; a phrase's are one text). */
export function talkWords(words) {
  const all = Object.entries(words?.commands?.talk ?? {});
  return [...all.filter(([, said]) => !isEmote(said)), ...all.filter(([, said]) => isEmote(said))];
}

/** An emote says a symbol on the seat and a name on its button; a phrase says the same on both. */
export function isEmote(said) {
  return !!said && said.badge[0] !== said.button[0];
}

/** The calls a table says aloud for what happened between two views (`news`: the table page's
 * whatHappened): a play that beats another seat's play is 管上 (a big one says its kind), a
 * lead names its kind, a pass is 不要, and a seat left with one card in a game of plays says 报单.
 * Each call is {call: "beat" | "pass" | "one"} or {kind}. */
export function callsOf(previous, view, news) {
  const calls = [];
  const lead = view.lead;
  if (news.plays.length && lead) {
    const beaten = previous?.lead && previous.lead.seat !== lead.seat && previous.hand_no === view.hand_no;
    calls.push(beaten && !news.big ? { call: "beat" } : { kind: lead.kind });
  } else if (news.passes.length) {
    calls.push({ call: "pass" });
  }
  for (const seat of news.plays) {
    if (view.counts?.[seat] === 1 && (previous?.counts?.[seat] ?? 0) > 1) calls.push({ call: "one" });
  }
  return calls;
}

/** Seats whose talk this person has chosen not to hear at a table, kept in `storage` (a page's
 * localStorage) per table. */
export function mutedSeats(storage, tableId) {
  try {
    const seats = JSON.parse(storage.getItem(`paiju.talkMuted.${tableId}`) ?? "[]");
    return new Set(Array.isArray(seats) ? seats.filter((s) => Number.isInteger(s)) : []);
  } catch {
    return new Set();
  }
}

export function setMutedSeat(storage, tableId, seat, muted) {
  const seats = mutedSeats(storage, tableId);
  if (muted) seats.add(seat);
  else seats.delete(seat);
  storage.setItem(`paiju.talkMuted.${tableId}`, JSON.stringify([...seats].sort()));
  return seats;
}
