// One seat on the board, drawn from the view: its name, card count and total, its badges (the
// game's roles and marks, its last word in an auction, 报单, out, left, 断线), its clock, its
// hidden hand's backs or its open hand, its figures, its talk, and its play in the current trick
// (or its last one, dimmed).

import { cardEl, cardRow, cardText } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatLabel } from "./seating.js";
import { seatToMove } from "./table-phases.js";
import { countdown } from "./turn-clocks.js";
import { clock, signed } from "./ui.js";
import { keyName, kindName, pick, spoken } from "./words.js";

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

/** A seat's box at `position` (seating.js: `positions`); `extras` are the view's figures per seat
 * (game-extras.js). */
export function seatBox(ctx, seat, position, extras) {
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
      "aria-label": seatLabel(ctx, seat),
    },
    h(
      "header.seat-head",
      null,
      h("span.avatar", { "aria-hidden": "true", dataset: { kind: kind ?? "" } }, String(seat + 1)),
      h("span.seat-name", null, seatLabel(ctx, seat)),
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
