// Our own card art, drawn as SVG in code: no image files, no fonts for the suits (they are paths).
//
// A card code is rank then suit: ranks 3 4 5 6 7 8 9 T J Q K A 2, suits S H C D (♠ ♥ ♣ ♦),
// jokers BJ (小王) and RJ (大王). Faces are built for reading at a glance in a fanned hand: the
// index (rank over suit) in the top-left corner is large, the centre carries one big suit, and
// court cards get a framed panel with their letter.

import { getLang } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const RED = "#c4262e";
const BLACK = "#1b1d21";

// Suit shapes in a 100 × 100 box.
const SUIT_PATHS = {
  S:
    "M50 2C58 20 98 40 98 63C98 79 86 89 72 89C63 89 56 85 53 78C54 88 58 95 67 100H33" +
    "C42 95 46 88 47 78C44 85 37 89 28 89C14 89 2 79 2 63C2 40 42 20 50 2Z",
  H:
    "M50 96C22 72 2 54 2 30C2 14 14 3 28 3C38 3 46 9 50 18C54 9 62 3 72 3C86 3 98 14 98 30" +
    "C98 54 78 72 50 96Z",
  C:
    "M50 3A21 21 0 0 1 68 36A21 21 0 1 1 55 70C56 84 60 93 68 100H32C40 93 44 84 45 70" +
    "A21 21 0 1 1 32 36A21 21 0 0 1 50 3Z",
  D: "M50 2L88 50L50 98L12 50Z",
};
export const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
export const SUIT_ZH = { S: "黑桃", H: "红桃", C: "梅花", D: "方块" };
const RANK_LABEL = { T: "10" };

export function parseCode(code) {
  if (code === "RJ" || code === "BJ") return { joker: true, big: code === "RJ", code };
  return { rank: code[0], suit: code[1], code };
}

export function isRed(code) {
  const c = parseCode(code);
  return c.joker ? c.big : c.suit === "H" || c.suit === "D";
}

export function rankLabel(code) {
  const c = parseCode(code);
  if (c.joker) return c.big ? "大王" : "小王";
  return RANK_LABEL[c.rank] ?? c.rank;
}

/** A card code: rank then suit, or a joker. */
export const CARD_CODE = /^(?:[3-9TJQKA2][SHCD]|BJ|RJ)$/;

/** A short text form as a player reads it, as the engine names cards: "♠10", "大王" in Chinese,
 * "10♠", "Big Joker" in English (for messages and screen readers). */
export function cardText(code) {
  const c = parseCode(code);
  const en = getLang() === "en";
  if (c.joker) return en ? (c.big ? "Big Joker" : "Small Joker") : rankLabel(code);
  return en ? rankLabel(code) + SUIT_SYMBOL[c.suit] : SUIT_SYMBOL[c.suit] + rankLabel(code);
}

/** The <svg> sprite with one <symbol> per suit; put once in the document. */
export function suitSprite() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", "0");
  svg.setAttribute("height", "0");
  svg.style.position = "absolute";
  const defs = document.createElementNS(SVG, "defs");
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    const symbol = document.createElementNS(SVG, "symbol");
    symbol.id = `suit-${suit}`;
    symbol.setAttribute("viewBox", "0 0 100 100");
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    symbol.append(path);
    defs.append(symbol);
  }
  const pattern = document.createElementNS(SVG, "pattern");
  pattern.id = "card-back-lattice";
  pattern.setAttribute("width", "10");
  pattern.setAttribute("height", "10");
  pattern.setAttribute("patternUnits", "userSpaceOnUse");
  pattern.setAttribute("patternTransform", "rotate(45)");
  pattern.append(el("rect", { width: 10, height: 10, fill: "#8f1d22" }));
  pattern.append(el("path", { d: "M0 5H10M5 0V10", stroke: "#b8343a", "stroke-width": 2.2 }));
  defs.append(pattern);
  svg.append(defs);
  return svg;
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function suit(s, x, y, size, fill) {
  const use = el("use", { href: `#suit-${s}`, x, y, width: size, height: size, fill });
  return use;
}

const FONT = "'Helvetica Neue', Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";
const SERIF = "Georgia, 'Times New Roman', 'Liberation Serif', 'DejaVu Serif', serif";

// Each face drawn once, then copied: a table page draws its hand and the plays again at every
// change (board.js and table.js keep the cards that did not change, but build them to compare)
const drawn = new Map();

/** One card face (or its back, with code null) as an <svg> in a 100 × 140 box. */
export function cardSvg(code, { title = true } = {}) {
  const key = `${code}|${title && code ? cardText(code) : ""}`; // its label follows the language
  let svg = drawn.get(key);
  if (!svg) drawn.set(key, (svg = drawCard(code, title)));
  return svg.cloneNode(true);
}

function drawCard(code, title) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-face", role: "img" });
  if (!code) {
    svg.setAttribute("aria-label", "card back");
    svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fbfaf7", stroke: "#b9b3a6", "stroke-width": 1.5 }));
    svg.append(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#card-back-lattice)" }));
    svg.append(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "none", stroke: "#e7c873", "stroke-width": 2 }));
    return svg;
  }
  const c = parseCode(code);
  const color = isRed(code) ? RED : BLACK;
  if (title) svg.setAttribute("aria-label", cardText(code));
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fffefb", stroke: "#b9b3a6", "stroke-width": 1.5 }));
  if (c.joker) {
    // the corner: JOKER written down the side, then a big star and the Chinese name
    const letters = "JOKER".split("");
    letters.forEach((ch, i) => {
      svg.append(el("text", { x: 12, y: 22 + i * 17, fill: color, "font-family": FONT, "font-weight": 700, "font-size": 17, "text-anchor": "middle" }, ch));
    });
    svg.append(el("path", { d: star(60, 62, 26, 11), fill: color }));
    svg.append(el("text", { x: 60, y: 118, fill: color, "font-family": FONT, "font-weight": 700, "font-size": 22, "text-anchor": "middle" }, c.big ? "大王" : "小王"));
    return svg;
  }
  const label = rankLabel(code);
  const narrow = label.length > 1;
  // the index, top-left: rank over suit, big enough to read in a 20 px strip of a fanned hand
  svg.append(el("text", { x: narrow ? 18 : 17, y: 34, fill: color, "font-family": FONT, "font-weight": 700, "font-size": narrow ? 28 : 33, "text-anchor": "middle", "letter-spacing": narrow ? -2.5 : 0 }, label));
  svg.append(suit(c.suit, 5, 40, 24, color));
  // the same index, upside down, bottom-right
  const turned = el("g", { transform: "rotate(180 50 70)" });
  turned.append(el("text", { x: narrow ? 18 : 17, y: 34, fill: color, "font-family": FONT, "font-weight": 700, "font-size": narrow ? 28 : 33, "text-anchor": "middle", "letter-spacing": narrow ? -2.5 : 0 }, label));
  turned.append(suit(c.suit, 5, 40, 24, color));
  svg.append(turned);
  if ("JQK".includes(c.rank)) {
    svg.append(el("rect", { x: 30, y: 26, width: 54, height: 88, rx: 4, fill: isRed(code) ? "#fbeeee" : "#eef0f4", stroke: color, "stroke-width": 1.6 }));
    svg.append(el("text", { x: 57, y: 82, fill: color, "font-family": SERIF, "font-weight": 700, "font-size": 46, "text-anchor": "middle" }, c.rank));
    svg.append(suit(c.suit, 46, 88, 22, color));
    svg.append(suit(c.suit, 46, 30, 22, color));
  } else if (c.rank === "A") {
    svg.append(suit(c.suit, 30, 42, 56, color));
  } else {
    svg.append(suit(c.suit, 34, 50, 44, color));
  }
  return svg;
}

function star(cx, cy, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join("L")}Z`;
}

/** A card as an element for the page: <div class="card" data-code>. */
export function cardEl(code, extra = "") {
  const div = document.createElement("div");
  div.className = `card ${extra}`.trim();
  if (code) div.dataset.code = code;
  div.append(cardSvg(code));
  return div;
}

/** A row of small cards (a play on the table, a hand in a replay). */
export function cardRow(codes, extra = "") {
  const div = document.createElement("div");
  div.className = `card-row ${extra}`.trim();
  div.style.setProperty("--n", String(Math.max(codes.length, 2)));
  for (const code of codes) div.append(cardEl(code, "small"));
  return div;
}
