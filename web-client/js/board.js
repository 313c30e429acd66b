// The table drawn from an engine view: seats around the table with their card counts, their play
// in the current trick (or their last one, dimmed), whose turn it is, the game's own facts, and
// the score sheet at the end of a hand and of a match. Used by the live table (a seat or a
// spectator) and by the replay (every hand open). Everything comes from `view()`, and every name
// from the game's words (`ctx.words`, words.js): its own view keys are drawn as its words present
// them — roles and marks as badges on seats, an auction as each seat's last word, figures per
// seat, facts, named cards and earned score lines in the centre, groups of seats on the score
// sheet. A key the words do not name is shown by its own name (a number per seat as a figure, a
// number or a text as a fact), so a game added to the engine shows here with no new code.

import { cardEl, cardRow, cardText } from "./cards.js";
import { h, patch } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { clock, signed } from "./ui.js";
import {
  fill,
  keyName,
  kindName,
  phaseName,
  pick,
  reasonName,
  shownKeys,
  spoken,
  suitName,
  turnLine,
  valueName,
} from "./words.js";
import { seatToMove } from "./table-phases.js";

// View keys every game has (the table's and the climbing core's), drawn in their own way.
const CORE_KEYS = new Set([
  "game", "variant", "players", "phase", "version", "hand_no", "turn", "leader", "commitment",
  "revealed_seed", "seat", "counts", "totals", "hand", "hands", "last_hand", "lead", "actions",
  "out", "benched",
]);
/** Where each seat sits, seen from `bottom`: seats are numbered in the order of play, and play
 * goes counterclockwise, so the next seat (下家) sits on the right. */
export function positions(players, bottom) {
  const layout = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
    6: ["bottom", "right", "top-right", "top", "top-left", "left"],
  }[players] ?? Array.from({ length: players }, (_, i) => (i ? `top` : "bottom"));
  const out = [];
  for (let seat = 0; seat < players; seat++) out[seat] = layout[(seat - bottom + players) % players];
  return out;
}

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  // a bot is named in the page's language (the server names it in both)
  const name = ctx.kinds?.[seat] === "bot" ? t("botName", { n: seat + 1 }) : ctx.names?.[seat] || t("seatN", { n: seat + 1 });
  if (seat !== ctx.me) return name;
  return getLang() === "zh" ? `${name}（${t("you")}）` : `${name} (${t("you")})`;
}

/** Remembers each seat's last play across tricks (the view only holds the current trick). */
export class PlayMemory {
  constructor() {
    this.handNo = null;
    this.last = [];
  }

  update(view) {
    if (view.hand_no !== this.handNo) {
      this.handNo = view.hand_no;
      this.last = [];
    }
    (view.actions ?? []).forEach((action, seat) => {
      if (action !== null && action !== undefined) this.last[seat] = action;
    });
  }
}

const isFact = (value) => (typeof value === "number" && value !== 0) || typeof value === "string"; // a count of nothing is no news
const isPerSeat = (view, value) =>
  Array.isArray(value) && value.length === view.players && value.every((v) => typeof v === "number");

/** The game's figures per seat and its facts, as its words name them, then its keys the words do
 * not name. */
function gameExtras(view, words) {
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

function playCards(action, { stale = false } = {}) {
  if (action === null || action === undefined) return null;
  if (action.length === 0) return h("div.play.passed", { dataset: { stale: stale ? "1" : "" } }, t("passed"));
  const row = cardRow(action, "play");
  if (stale) row.classList.add("stale");
  return row;
}

/** The badges of what a seat is this hand, as the game's words name them: the roles it holds,
 * its last word in an auction, to yourself a role you hold in secret (you hold a named card whose
 * holder is not public yet), and the marks it carries (sitting the hand out). */
function roleBadges(ctx, seat) {
  const view = ctx.view;
  const words = ctx.words ?? {};
  const out = [];
  for (const [key, name] of Object.entries(words.roles ?? {})) {
    if (view[key] === seat) out.push(h("span.badge.role", { dataset: { role: key } }, pick(name, key)));
  }
  for (const [key, type] of Object.entries(words.auctions ?? {})) {
    const said = view[key] ?? [];
    const i = said.findLastIndex(([s]) => s === seat);
    if (i < 0) continue;
    const word = said[i][1];
    const earlier = said.slice(0, i).map(([, w]) => w);
    const strong = word === "pass" ? "" : "1"; // a word that is more than declining
    out.push(h("span.badge.said", { dataset: { word, strong } }, spoken(words, type, word, earlier, "badge", view.phase)));
  }
  for (const [key, holder] of Object.entries(words.card_holders ?? {})) {
    const card = view[key];
    const publicRole = (holder.unless ?? []).some((role) => view[role] === seat);
    const voided = (holder.void_when ?? []).some((key) => view[key] !== null && view[key] !== undefined);
    if (seat === ctx.me && card && view[holder.role] === null && !publicRole && !voided && (view.hand ?? []).includes(card)) {
      out.push(h("span.badge.role.secret", { dataset: { role: `${holder.role}-secret` } }, pick(holder.badge)));
    }
  }
  for (const [key, name] of Object.entries(words.seat_marks ?? {})) {
    if ((view[key] ?? []).includes(seat)) out.push(h(`span.badge.mark.${key}`, null, pick(name, key)));
  }
  return out;
}

/** The seat's marks as data attributes (data-<mark>="1"), for the page's styles. */
function markData(ctx, seat) {
  const out = {};
  for (const key of Object.keys(ctx.words?.seat_marks ?? {})) out[key] = (ctx.view[key] ?? []).includes(seat) ? "1" : "";
  return out;
}

/** Whether a person's seat has no socket on any gateway (断线): ``ctx.connected`` is the state
 * frame's ``connected`` (null or absent: not known, no badge); bots and seats whose player left
 * are never shown so, nor is anyone once the match is over. */
function isOffline(ctx, seat, kind) {
  if (!Array.isArray(ctx.connected) || kind !== "human" || ctx.view?.phase === "over") return false;
  return !ctx.connected.includes(seat);
}

function seatBox(ctx, seat, position, extras) {
  const view = ctx.view;
  const count = view.counts?.[seat];
  const isTurn = seatToMove(view) === seat;
  const outPlace = (view.out ?? []).indexOf(seat);
  const kind = ctx.kinds?.[seat];
  const badges = roleBadges(ctx, seat);
  if (view.phase === "play" && count === 1) badges.push(h("span.badge.alert", null, t("announceOne")));
  else if (view.phase === "play" && count === 2) badges.push(h("span.badge.warn", null, t("announceTwo")));
  if (outPlace >= 0) badges.push(h("span.badge.good", null, t("outPlace", { n: outPlace + 1 })));
  if (ctx.left?.[seat]) badges.push(h("span.badge.left", { title: t("seatLeftTitle") }, t("seatLeftBadge")));
  else if (isOffline(ctx, seat, kind)) badges.push(h("span.badge.offline", { title: t("offlineTitle") }, t("offlineBadge")));
  // a seat 托管 plays shows no person's clock (its badge says who plays): its deadline is the
  // server's short wait before each of its moves, not time anyone has to think
  const inAuto = (view.auto ?? []).includes(seat);
  const timed = !!ctx.deadline && ctx.deadlineSeat === seat && !inAuto;
  const thinking = isTurn && !!ctx.turnSince && !inAuto;
  const trick = view.actions?.[seat];
  const current = trick !== null && trick !== undefined;
  const action = current ? trick : ctx.memory?.last?.[seat];
  const open = ctx.openHands?.[seat];
  const isLead = view.lead && view.lead.seat === seat;
  const topKey = ctx.words?.trick?.top;
  const isTop = current && !!topKey && view[topKey] === seat;
  return h(
    `section.seat.pos-${position}`,
    {
      dataset: {
        seat,
        turn: isTurn ? "1" : "",
        me: seat === ctx.me ? "1" : "",
        ...markData(ctx, seat),
      },
      "aria-label": seatName(ctx, seat),
    },
    h(
      "header.seat-head",
      null,
      h("span.avatar", { "aria-hidden": "true", dataset: { kind: kind ?? "" } }, String(seat + 1)),
      h("span.seat-name", null, seatName(ctx, seat)),
      h(
        "span.seat-figures",
        null,
        count !== undefined && view.phase !== "commit" && view.phase !== "seeding"
          ? h("span.count", { title: t("cardsLeft", { n: count }) }, h("span.mini-back", { "aria-hidden": "true" }), h("b", null, String(count)))
          : null,
        h("span.total", { title: t("total") }, signed(view.totals?.[seat] ?? 0)),
      ),
    ),
    badges.length || thinking || timed
      ? h(
          "div.seat-badges",
          null,
          badges,
          timed ? seatClock(ctx) : thinking ? h("span.turn-clock", { dataset: { since: String(ctx.turnSince ?? Date.now()) } }, t("thinking", { s: clock(((Date.now() - (ctx.turnSince ?? Date.now())) / 1000)) })) : null,
        )
      : null,
    !open && typeof count === "number" && count > 0 && seat !== ctx.me ? backsRow(count) : null,
    extras.perSeat.length
      ? h(
          "div.seat-stats",
          null,
          extras.perSeat.map(([key, values]) => {
            const bound = view[ctx.words?.figure_limits?.[key]];
            const outOf = typeof bound === "number" ? ` / ${bound}` : "";
            return h("span", { dataset: { key } }, `${keyName(ctx.words ?? {}, key)} ${values[seat]}${outOf}`);
          }),
        )
      : null,
    ctx.talk?.[seat] ? h("p.talk-bubble", { dataset: { emote: ctx.talk[seat].emote ? "1" : "" } }, ctx.talk[seat].text) : null,
    seat === ctx.me && ctx.handNote ? handNote(ctx.handNote) : null,
    open ? cardRow(open, "open-hand") : null,
    h(
      "div.seat-play",
      { dataset: { current: current ? "1" : "", lead: isLead ? "1" : "", top: isTop ? "1" : "" } },
      action !== undefined && action !== null ? playCards(action, { stale: !current }) : null,
      isLead && current ? h("span.lead-kind", null, kindName(ctx.words ?? {}, view.lead.kind)) : null,
    ),
  );
}

// A fan of more backs looks the same (slivers) and costs the page a drawing of each: 打棒's
// 52-card hands were 150 backs to draw again whenever the board changed
const MAX_BACKS = 12;

/** A seat's hidden hand: its cards' backs, fanned tight, at most MAX_BACKS of them (the count
 * beside the seat's name says how many: it is public, nothing else is). */
function backsRow(count) {
  const shown = Math.min(count, MAX_BACKS);
  const row = h("div.card-row.backs", { "aria-hidden": "true", style: { "--n": String(Math.max(shown, 2)) } });
  for (let i = 0; i < shown; i++) row.append(cardEl(null, "small"));
  return row;
}

function centerMessage(ctx) {
  const view = ctx.view;
  if (ctx.waiting || (view.phase === "commit" && !view.hand_no)) return t("waitingPlayers");
  if (view.phase === "commit" || view.phase === "seeding") return t("dealing");
  if (view.phase === "play") {
    if (view.turn === ctx.me) return view.lead ? t("yourTurn") : t("yourLead");
    if (!view.lead) return t("newTrick", { name: seatName(ctx, view.turn) });
    return t("theirTurn", { name: seatName(ctx, view.turn) });
  }
  const seat = seatToMove(view);
  const words = ctx.words ?? {};
  const line = seat === null ? null : turnLine(words, view.phase, seat === ctx.me, seatName(ctx, seat));
  return line ?? phaseName(words, view.phase);
}

/** The centre's list of what everyone knows about this hand, as the game's words tell it: the
 * cards named in public, the seats public facts point at, the score lines earned so far, the
 * game's other facts. */
function announcementsOf(ctx, extras) {
  const view = ctx.view;
  const words = ctx.words ?? {};
  const out = [];
  for (const [key, template] of Object.entries(words.card_facts ?? {})) {
    if (view[key]) out.push(h("li", { dataset: { key } }, fill(pick(template), { card: cardText(view[key]) })));
  }
  for (const [key, name] of Object.entries(words.card_sets ?? {})) {
    const cards = view[key];
    if (Array.isArray(cards) && cards.length) {
      out.push(h("li.card-set", { dataset: { key } }, `${pick(name, key)}${t("colon")}${cards.map(cardText).join(" ")}`));
    }
  }
  for (const [key, name] of Object.entries(words.seat_facts ?? {})) {
    if (typeof view[key] === "number") out.push(h("li", { dataset: { key } }, `${pick(name, key)}${t("colon")}${seatName(ctx, view[key])}`));
  }
  for (const [key, name] of Object.entries(words.lines ?? {})) {
    // one line per payee and reason: every payer's share summed
    const earned = [];
    for (const line of view[key] ?? []) {
      const last = earned.at(-1);
      if (last && last.reason === line.reason && last.payee === line.payee) last.amount += line.amount;
      else earned.push({ ...line });
    }
    for (const e of earned) {
      out.push(
        h("li.earned", { dataset: { key }, title: pick(name) }, `${reasonName(words, e.reason)} · ${seatName(ctx, e.payee)} +${e.amount}`),
      );
    }
  }
  for (const [key, value] of extras.facts) {
    out.push(h("li", { dataset: { key } }, `${keyName(words, key)}${t("colon")}${valueName(words, key, value)}`));
  }
  return out;
}

/** The groups of seats a finished hand shows under its score sheet (who was with whom): each
 * member named with its seats, a flag that holds by its name. */
function groupLines(ctx) {
  const zh = getLang() === "zh";
  const out = [];
  for (const [key, members] of Object.entries(ctx.words?.groups ?? {})) {
    const value = ctx.view[key];
    if (!value) continue;
    const parts = [];
    const flags = [];
    for (const [member, name] of Object.entries(members)) {
      const got = value[member];
      if (Array.isArray(got)) parts.push(`${pick(name, member)}${zh ? "：" : ": "}${got.map((s) => seatName(ctx, s)).join(zh ? "、" : ", ")}`);
      else if (got === true) flags.push(zh ? `（${pick(name, member)}）` : ` (${pick(name, member)})`);
    }
    out.push(h("p.muted", { dataset: { key } }, `${parts.join(zh ? "；" : "; ")}${flags.join("")}`));
  }
  return out;
}

/** The whole board into `el`. `ctx`: {view, words, config, me, bottom, names, kinds, openHands,
 * memory, turnSince, mySlot, bigKinds} — words are the game's (words.js), mySlot is the live
 * table's own hand and controls, bigKinds the combination kinds seen beating another kind. */
export function renderBoard(el, ctx) {
  const view = ctx.view;
  const n = view.players;
  const bottom = ctx.bottom ?? ctx.me ?? 0;
  const where = positions(n, bottom);
  const extras = gameExtras(view, ctx.words ?? {});
  const announcements = announcementsOf(ctx, extras);
  const seats = [];
  for (let seat = 0; seat < n; seat++) {
    if (seat === ctx.me && ctx.mySlot) continue;
    seats.push(seatBox(ctx, seat, where[seat], extras));
  }
  const lead = view.lead;
  patch( // only what changed since the last frame is drawn again
    el,
    h(
      "div.board",
      { dataset: { players: n, phase: view.phase, turn: view.turn ?? "", me: ctx.me ?? "", version: view.version } },
      seats,
      h(
        "div.center",
        null,
        sidesPanel(ctx),
        h("p.center-message#center-message", null, centerMessage(ctx)),
        lead ? leadRow(ctx, lead) : null,
        lead ? leadInfo(ctx, lead) : null,
        announcements.length ? h("ul.announcements", null, announcements) : null,
      ),
      ctx.me !== null && ctx.me !== undefined && ctx.mySlot ? mySeat(ctx, extras) : null,
    ),
  );
  // my slot (my hand and my buttons: the page's own, marked data-keep, which patch leaves where it
  // is) in my seat, and nowhere else
  const mine = el.querySelector(".seat.mine");
  for (const kept of el.querySelectorAll("[data-keep]")) if (kept !== ctx.mySlot || !mine) kept.remove();
  if (mine && ctx.mySlot && ctx.mySlot.parentNode !== mine) mine.append(ctx.mySlot);
}

/** A seat's turn clock: its countdown, or, while this page has no socket, that the time left is
 * not known here (the server's clock runs on and may hand the turn to 托管). */
function seatClock(ctx) {
  if (ctx.offline) return h("span.turn-clock.clock-unknown", { title: t("clockUnknownTitle") }, t("clockUnknown"));
  return countdown(ctx.deadline);
}

/** On my seat, what happened to my hand that I did not do: the cards that left it and those that
 * came, in words (handchange.js). */
function handNote(note) {
  const named = (codes) => codes.map(cardText).join(" ");
  return h(
    "p.hand-note",
    { role: "status" },
    note.went.length ? [h("span.hand-went", null, t("handWent", { cards: named(note.went) })), " · "] : null,
    h("span.hand-came", null, t("handCame", { cards: named(note.came) })),
  );
}

/** What the centre says of the trick: who led, the kind and the led suit (a game of tricks names
 * it), the cards, and whose play is on top so far (when the game's words say where). */
function leadInfo(ctx, lead) {
  const words = ctx.words ?? {};
  const suit = lead.suit === undefined ? null : suitName(words, lead.suit);
  const topKey = words.trick?.top;
  const top = topKey ? ctx.view[topKey] : null;
  return h(
    "p.lead-info",
    { dataset: { big: ctx.bigKinds?.has(lead.kind) ? "1" : "" } },
    `${seatName(ctx, lead.seat)} · `,
    h("span.lead-kind-name", null, kindName(words, lead.kind)),
    lead.said ? h("span.lead-said", null, ` ${lead.said}`) : null, // the set with its wildcards as what they stood for
    suit ? [" · ", h("span.lead-suit", { dataset: { suit: String(lead.suit) } }, t("ledSuit", { suit }))] : null,
    h("span.lead-cards", null, ` · ${lead.cards.map(cardText).join(" ")}`),
    typeof top === "number" ? [" · ", h("span.trick-top", { dataset: { seat: String(top) } }, t("onTop", { name: seatName(ctx, top) }))] : null,
  );
}

/** Each side's figures (its level, its points), for every side at all times: side i is the
 * seats s with s % count === i; the viewer's own side first, each named by its seats. */
function sidesPanel(ctx) {
  const view = ctx.view;
  const words = ctx.words ?? {};
  const keys = Object.keys(words.side_figures ?? {}).filter(
    (key) => Array.isArray(view[key]) && view[key].length > 1 && view[key].every((v) => typeof v === "number"),
  );
  if (!keys.length) return null;
  const count = view[keys[0]].length;
  const mine = typeof ctx.me === "number" ? ctx.me % count : 0;
  const order = Array.from({ length: count }, (_, i) => (mine + i) % count);
  return h(
    "div.side-panel",
    { role: "group", "aria-label": t("bothSides") },
    order.map((side) => {
      const seats = Array.from({ length: view.players }, (_, s) => s).filter((s) => s % count === side);
      const label = typeof ctx.me === "number" ? (side === mine ? t("ourSide") : t("theirSide")) : seats.map((s) => String(s + 1)).join("·");
      return h(
        "div.side",
        { dataset: { side: String(side), mine: typeof ctx.me === "number" && side === mine ? "1" : "" }, title: seats.map((s) => seatName(ctx, s)).join(" · ") },
        h("span.side-name", null, label),
        keys.map((key) => h("span.side-figure", { dataset: { key } }, `${keyName(words, key)} `, h("b", null, String(view[key][side])))),
      );
    }),
  );
}

/** The play on top of the trick, in the centre; a big play (a kind the engine let beat a play of
 * another kind, as `ctx.bigKinds` learnt it) is marked. */
function leadRow(ctx, lead) {
  const row = cardRow(lead.cards, "center-lead");
  row.dataset.seat = String(lead.seat);
  row.dataset.kind = lead.kind ?? "";
  row.dataset.big = ctx.bigKinds?.has(lead.kind) ? "1" : "";
  row.dataset.id = `${lead.seat}:${lead.cards.join(",")}`; // another play: another element (dom.js patch)
  return row;
}

function mySeat(ctx, extras) {
  const seat = ctx.me;
  const box = seatBox(ctx, seat, "bottom", extras);
  box.classList.add("mine");
  return box; // the page's own slot goes in after the patch (renderBoard)
}

/** The score sheet of the hand that just ended (and the match's totals when it is over). */
export function scoreSheet(ctx, { final = false, actions = [] } = {}) {
  const view = ctx.view;
  const hand = view.last_hand;
  if (!hand) return null;
  const n = view.players;
  const left = view.hands ?? null;
  const rows = [];
  const words = ctx.words ?? {};
  const perSeat = gameExtras(view, words).perSeat; // the game's own counts as they were scored
  // the hand's record (the view's `result`, as its game declares it): one with scores has the
  // columns of the hand's score and the running total; one without has its
  // result lines only, and no crown
  const scored = !view.result || "scores" in view.result;
  // the crown (赢家) marks the best score: on the match's last sheet the best total (the match's
  // winner, whoever went out first), on a hand's sheet the hand's best score; nobody on a draw
  const marks = scored ? (final ? view.totals : hand.scores) : [];
  const best = Math.max(...marks);
  const crowned = (seat) => marks.some((v) => v !== best) && marks[seat] === best;
  const draw = marks.length > 0 && marks.every((v) => v === best); // nobody crowned: say why
  for (let seat = 0; seat < n; seat++) {
    rows.push(
      h(
        "tr",
        { dataset: { seat, winner: crowned(seat) ? "1" : "" } },
        h("th", { scope: "row" }, crowned(seat) ? h("span.crown", { title: t("winner") }, "★ ") : null, seatName(ctx, seat)),
        h("td.num", null, left ? String(left[seat].length) : String(view.counts?.[seat] ?? "")),
        perSeat.map(([key, values]) => h("td.num", { dataset: { key } }, String(values[seat]))),
        scored ? h("td.num.score", { dataset: { sign: Math.sign(hand.scores[seat]) } }, signed(hand.scores[seat])) : null,
        scored ? h("td.num.total", { dataset: { sign: Math.sign(view.totals[seat]) } }, signed(view.totals[seat])) : null,
      ),
    );
  }
  return h(
    "section.score-sheet#score-sheet",
    { dataset: { final: final ? "1" : "", hand: hand.hand_no }, "aria-label": t("scoreSheet", { n: hand.hand_no }) },
    h("h2", null, final ? t("matchOver") : t("scoreSheet", { n: hand.hand_no })),
    draw ? h("p.draw#draw", null, final ? t("matchDraw") : t("handDraw")) : null,
    final && hand.hand_no > 1 ? h("p.muted", null, t("scoreSheet", { n: hand.hand_no })) : null,
    h(
      "table.scores",
      null,
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, t("seat")),
          h("th.num", null, t("left")),
          perSeat.map(([key]) => h("th.num", null, keyName(words, key))),
          scored ? h("th.num", null, t("thisHand")) : null,
          scored ? h("th.num", null, final ? t("finalTotals") : t("total")) : null,
        ),
      ),
      h("tbody", null, rows),
    ),
    hand.lines?.length
      ? h(
          "ul.score-lines",
          null,
          hand.lines.map((line) =>
            h(
              "li",
              null,
              h("span.line-reason", null, reasonName(words, line.reason)),
              h("span", null, t("pays", { payer: seatName(ctx, line.payer), payee: seatName(ctx, line.payee) })),
              h("b", null, String(line.amount)),
            ),
          ),
        )
      : null,
    // what the hand gives that is not a payment (levels, tribute, 番): "reason · seat value"
    hand.results?.length
      ? h(
          "ul.score-lines.result-lines",
          null,
          hand.results.map((line) =>
            h(
              "li",
              null,
              h("span.line-reason", null, reasonName(words, line.reason)),
              h("span", null, seatName(ctx, line.seat)),
              h("b", null, String(line.value)),
            ),
          ),
        )
      : null,
    sidesPanel(ctx),
    groupLines(ctx),
    left
      ? h(
          "div.left-hands",
          null,
          left.map((cards, seat) => (cards.length ? h("div.left-hand", null, h("span", null, seatName(ctx, seat)), cardRow(cards)) : null)),
        )
      : null,
    actions.length ? h("div.sheet-actions", null, actions) : null,
  );
}

/** A countdown to a deadline (epoch ms): the seconds left, marked `data-warn` in the last 5. */
export function countdown(deadline, key = "clockLeft") {
  const el = h("span.turn-clock.countdown", { dataset: { deadline: String(deadline), key } });
  tickCountdown(el);
  return el;
}

function tickCountdown(el) {
  const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
  setText(el, t(el.dataset.key || "clockLeft", { s: clock(left) }));
  const warn = left <= 5 ? "1" : "";
  if (el.dataset.warn !== warn) el.dataset.warn = warn;
}

/** A tick that does not change what a clock says changes nothing on the page (no layout). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Ticks every turn clock on the page (counting up, or down to a deadline) a few times a second. */
export function startClocks() {
  return setInterval(() => {
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".turn-clock[data-since]"))) {
      const since = Number(el.dataset.since);
      setText(el, t("thinking", { s: clock((Date.now() - since) / 1000) }));
    }
    for (const el of document.querySelectorAll(".turn-clock[data-deadline]")) tickCountdown(el);
  }, 250);
}

export { cardEl };
