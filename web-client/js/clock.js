// A table's turn clock in words: the lobby's three choices (标准, 宽松, 不限时) and the line a
// table's head shows when its clock is not its game's default.

import { getLang, t } from "./i18n.js";

export const CLOCK_CHOICES = ["standard", "relaxed", "none"];

/** The clock a new table asks for: none for 标准 (the game's defaults), each kind doubled for
 * 宽松, 0 for every kind for 不限时. */
export function clockOf(game, choice) {
  const defaults = game?.clock ?? {};
  if (choice === "relaxed") return Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, v * 2]));
  if (choice === "none") return Object.fromEntries(Object.keys(defaults).map((k) => [k, 0]));
  return null;
}

/** A table's turn clock when it is not its game's default, or "": a choice by its name
 * ("限时：宽松"), else the kinds of one value together, 0 said as untimed
 * ("限时：<kind>、<kind> 不限时，<kind> 60s", each kind by the game's own name for it). */
export function clockText(game, clock) {
  const defaults = game?.clock;
  if (!defaults || !clock) return "";
  const kinds = Object.keys(defaults);
  const same = (choice) => {
    const asked = clockOf(game, choice) ?? defaults;
    return kinds.every((k) => (clock[k] ?? defaults[k]) === asked[k]);
  };
  if (same("standard")) return "";
  const named = CLOCK_CHOICES.find(same);
  if (named) return t("clockLine", { clock: t(`clock_${named}`) });
  const zh = getLang() === "zh";
  const kindName = (k) => {
    const pair = game.words?.value_names?.clock?.[k];
    return pair ? pair[zh ? 0 : 1] : k;
  };
  const byValue = new Map(); // seconds → the kinds that have them, in the game's order
  for (const k of kinds) {
    const seconds = clock[k] ?? defaults[k];
    byValue.set(seconds, [...(byValue.get(seconds) ?? []), kindName(k)]);
  }
  const words = [...byValue].map(
    ([seconds, names]) => `${names.join(zh ? "、" : ", ")} ${seconds === 0 ? t("clockUntimed") : `${seconds}s`}`,
  );
  return t("clockLine", { clock: words.join(zh ? "，" : "; ") });
}
