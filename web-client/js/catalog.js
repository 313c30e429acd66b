// The game catalogue (the server's /api/games, fetched once per page) and how the page names what
// it lists: a game, a variant, a listed table's game, a table's house rules.

import * as api from "./api.js";
import { CARD_CODE, cardText } from "./cards.js";
import { h } from "./dom.js";
import { both, getLang, t } from "./i18n.js";

export function gameName(game) {
  if (!game) return "";
  return getLang() === "zh" ? game.name_zh : game.name_en;
}

export function variantOf(game, id) {
  return game?.variants.find((v) => v.id === id) ?? null;
}

export function variantName(variant) {
  if (!variant) return "";
  return getLang() === "zh" ? variant.name_zh : variant.name_en;
}

let catalogPromise = null;
/** The game catalogue, fetched once per page. */
export function catalog() {
  catalogPromise ??= api.games().catch((err) => {
    catalogPromise = null;
    throw err;
  });
  return catalogPromise;
}

/** A listed table's game and variant, named from the catalogue `games` (else by their ids). */
export function tableGameName(games, tbl) {
  const game = games?.find((g) => g.id === tbl.game);
  return `${gameName(game) || tbl.game} · ${variantName(variantOf(game, tbl.variant)) || tbl.variant}`;
}

/** The table's options that differ from its variant's defaults, compactly ("房规：…"), or "". */
export function houseRulesText(variant, options) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const changed = (variant?.options ?? []).filter((o) => options && o.name in options && !same(options[o.name], o.default));
  if (changed.length === 0) return "";
  const colon = getLang() === "zh" ? "：" : ": ";
  const words = changed.map((o) => {
    if (o.kind === "choice") return both(o.choices.find((c) => c.value === options[o.name]) ?? { zh: options[o.name], en: options[o.name] });
    if (o.kind === "bool") return options[o.name] ? both(o) : `${both(o)}${colon}${t("optionOff")}`;
    if (o.kind === "list") {
      const preset = (o.presets ?? []).find((p) => same(p.value, options[o.name]));
      return `${both(o)}${colon}${preset ? both(preset) : options[o.name].map(itemText).join(" ")}`;
    }
    return `${both(o)}${colon}${options[o.name]}`;
  });
  return t("houseRulesLine", { rules: words.join(getLang() === "zh" ? "；" : "; ") });
}

/** A list option's item as the page writes it: a card code by its name (♠A / A♠), else as is. */
function itemText(value) {
  return typeof value === "string" && CARD_CODE.test(value) ? cardText(value) : String(value);
}

/** The name of a bots' level (an id of the catalogue's `levels`), or the id itself. */
export function levelName(game, id) {
  const level = (game?.levels ?? []).find((l) => l.id === id);
  return level ? (getLang() === "zh" ? level.name_zh : level.name_en) : id;
}

/** A select of the bots' levels of catalogue entry `game`, its default (listed first) chosen. */
export function levelSelect(game, id) {
  return h(
    `select#${id}`,
    { name: "level" },
    (game?.levels ?? []).map((level, i) => h("option", { value: level.id, selected: i === 0 }, levelName(game, level.id))),
  );
}

/** A bot seat of listed table `tbl` as a list names it: "机器人 2 · 高手" (its level's name from
 * the catalogue `games`). */
export function botChip(games, tbl, seat) {
  const name = t("botName", { n: seat.seat + 1 });
  return seat.level ? `${name} · ${levelName(games?.find((g) => g.id === tbl.game), seat.level)}` : name;
}
