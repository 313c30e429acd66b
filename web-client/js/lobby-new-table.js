// The lobby's form to open a table: the game, its variant and players, the house rules (the
// variant's options, only those changed are sent), the turn clock, bots or a wait for people, the
// nickname; and its practice box, the same choices played against bots in this browser alone.

import * as api from "./api.js";
import { levelSelect, variantName, variantOf } from "./catalog.js";
import { CLOCK_CHOICES, clockOf } from "./clock.js";
import { clear, h } from "./dom.js";
import { both, getLang, t } from "./i18n.js";
import { isOnline } from "./offline.js";
import { toast } from "./ui.js";

/** One control of the house rules for a catalogue option ({name, kind, default, zh, en, choices,
 * min}): its row, and what it reads now. Ids are `opt-<name>`. */
function optionControl(option) {
  const id = `opt-${option.name}`;
  if (option.kind === "bool") {
    const input = h(`input#${id}`, { type: "checkbox", name: option.name, checked: option.default });
    return { option, row: h("label.option-check", null, input, h("span", null, both(option))), read: () => input.checked };
  }
  if (option.kind === "list") return listControl(option, id);
  const control =
    option.kind === "choice"
      ? h(
          `select#${id}`,
          { name: option.name },
          option.choices.map((c) => h("option", { value: c.value, selected: c.value === option.default }, both(c))),
        )
      : h(`input#${id}`, { type: "number", name: option.name, min: String(option.min), step: "1", value: String(option.default), inputMode: "numeric" });
  const read = option.kind === "choice" ? () => control.value : () => (control.value.trim() === "" ? option.default : Number(control.value));
  return { option, row: h("label", null, h("span", null, both(option)), control), read };
}

/** A list option (a 番 table, the cards taken out): its named presets to pick from, and the list
 * itself to edit, its items separated by spaces. */
function listControl(option, id) {
  const text = (value) => value.join(" ");
  const input = h(`input#${id}`, { type: "text", name: option.name, value: text(option.default), spellcheck: false });
  const presets = option.presets ?? [];
  // the preset the list is, or "custom" once it is typed into something else
  const presetOf = (value) => {
    const i = presets.findIndex((p) => text(p.value) === value.trim().split(/[\s,，]+/).filter(Boolean).join(" "));
    return i < 0 ? "custom" : String(i);
  };
  const picker = presets.length
    ? h(
        `select#${id}-preset`,
        { name: `${option.name}-preset`, "aria-label": both(option) },
        presets.map((p, i) => h("option", { value: String(i) }, both(p))),
        h("option", { value: "custom", disabled: true }, t("customList")),
      )
    : null;
  if (picker) picker.value = presetOf(input.value);
  picker?.addEventListener("change", () => {
    input.value = text(presets[Number(picker.value)].value);
  });
  input.addEventListener("input", () => {
    if (picker) picker.value = presetOf(input.value);
  });
  const read = () => {
    const items = input.value.split(/[\s,，]+/).filter(Boolean);
    return option.item === "int" ? items.map(Number) : items.map((x) => x.toUpperCase());
  };
  return { option, row: h("label.option-list", null, h("span", null, both(option)), picker, input), read };
}

/** The options a person changed from the variant's defaults: what a new table sends. */
function changedOptions(controls) {
  const out = {};
  for (const { option, read } of controls) {
    const value = read();
    if (JSON.stringify(value) !== JSON.stringify(option.default)) out[option.name] = value;
  }
  return out;
}

/** The form for the catalogue `games`, the game `chosen` (an id) picked; `choose(id)`: another game
 * picked (the lobby draws the form again for it). */
export function newTableForm(games, chosen, choose) {
  const game = games.find((g) => g.id === chosen) ?? games[0];
  const gameSelect = h(
    "select#create-game",
    { name: "game", on: { change: (e) => choose(e.target.value) } },
    games.map((g) => h("option", { value: g.id, selected: g.id === game.id }, `${g.name_zh} ${g.name_en}`)),
  );
  const variantSelect = h(
    "select#create-variant",
    { name: "variant" },
    game.variants.map((v) => h("option", { value: v.id }, variantName(v))),
  );
  const playersSelect = h("select#create-players", { name: "players" });
  const variantSummary = h("p.variant-summary");
  const rulesBody = h("div.house-rules-body");
  const houseRules = h("details.house-rules#house-rules", null, h("summary", null, t("houseRules")), rulesBody);
  let controls = [];
  const syncVariant = () => {
    const v = variantOf(game, variantSelect.value);
    clear(playersSelect, v.players.map((n) => h("option", { value: n, selected: n === v.players.at(-1) }, t("playersN", { n }))));
    variantSummary.textContent = getLang() === "zh" ? v.summary_zh : v.summary_en;
    controls = (v.options ?? []).map(optionControl);
    houseRules.hidden = controls.length === 0;
    clear(rulesBody, h("p.muted.house-rules-hint", null, t("houseRulesHint")), controls.map((c) => c.row));
  };
  variantSelect.addEventListener("change", syncVariant);
  syncVariant();
  const name = h("input#create-name", {
    name: "name",
    value: api.playerName(),
    maxLength: 32,
    autocomplete: "nickname",
    // kept as it is typed: joining a listed table or an invite uses it too
    on: { change: () => api.setPlayerName(name.value), input: () => api.setPlayerName(name.value) },
  });
  // the bots' level (the catalogue's levels, the default first), while the opponents are bots
  const botLevel = levelSelect(game, "create-level");
  const botLevelRow = h("label", null, h("span", null, t("botLevel")), botLevel);
  const opponents = h(
    "select#create-opponents",
    { name: "opponents", on: { change: () => (botLevelRow.hidden = opponents.value !== "bots") } },
    h("option", { value: "bots", selected: true }, t("opponentsBots")),
    h("option", { value: "wait" }, t("opponentsWait")),
  );
  // 出牌限时: the game's clock (标准), twice as long (宽松), or none (不限时: friends' tables)
  const clockSelect = h(
    "select#create-clock",
    { name: "clock" },
    CLOCK_CHOICES.map((choice) => h("option", { value: choice, selected: choice === "standard" }, t(`clock_${choice}`))),
  );
  const submit = h("button.button.primary#create-submit", { type: "submit", disabled: !isOnline() }, t("createAndSit"));
  // 练习: the same choices, played against bots in this browser alone (practice.js), offline too,
  // at the bots' level and pace chosen here
  const practiceLevel = levelSelect(game, "practice-level");
  const paceSelect = h(
    "select#practice-pace",
    { name: "pace" },
    h("option", { value: "normal", selected: true }, t("paceNormal")),
    h("option", { value: "fast" }, t("paceFast")),
  );
  const practice = h(
    "button.button#practice-submit",
    {
      type: "button",
      on: {
        click: () => {
          api.setPlayerName(name.value);
          const query = new URLSearchParams({ players: playersSelect.value, clock: clockSelect.value, level: practiceLevel.value, pace: paceSelect.value });
          const options = changedOptions(controls);
          if (Object.keys(options).length > 0) query.set("options", JSON.stringify(options));
          location.hash = `#/practice/${game.id}/${variantSelect.value}?${query}`;
        },
      },
    },
    t("practiceGo"),
  );
  const form = h(
    "form.create-form",
    {
      on: {
        submit: async (e) => {
          e.preventDefault();
          submit.disabled = true;
          submit.textContent = t("creating");
          try {
            api.setPlayerName(name.value);
            const players = Number(playersSelect.value);
            const clock = clockOf(game, clockSelect.value);
            const created = await api.createTable(game.id, variantSelect.value, players, changedOptions(controls), clock);
            api.saveOwnerToken(created.id, created.owner_token);
            if (opponents.value === "bots") {
              // the bots sit first and you last: your seat completes the table, which deals
              const others = Array.from({ length: players - 1 }, (_, i) => i + 1);
              await api.addBots(created.id, others, botLevel.value);
            }
            const joined = await api.joinSeat(created.id, api.playerName(), 0, api.newSeed());
            api.saveSeatToken(created.id, joined.seat, joined.token);
            location.hash = `#/table/${created.id}`;
          } catch (err) {
            toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh ?? err.message : err.en ?? err.message}`, "error");
            submit.disabled = false;
            submit.textContent = t("createAndSit");
          }
        },
      },
    },
    h("label", null, h("span", null, t("game")), gameSelect),
    h("label", null, h("span", null, t("variant")), variantSelect),
    variantSummary,
    h("label", null, h("span", null, t("players")), playersSelect),
    houseRules,
    h("label", null, h("span", null, t("clockChoice")), clockSelect),
    h("label", null, h("span", null, t("opponents")), opponents),
    botLevelRow,
    h("label", null, h("span", null, t("yourName")), name),
    submit,
    h(
      "fieldset.practice-box",
      null,
      h("legend", null, t("practiceStart")),
      h("p.muted.practice-hint", null, t(isOnline() ? "practiceHint" : "offlineCreate")),
      h("div.practice-row", null, h("label", null, h("span", null, t("botLevel")), practiceLevel), h("label", null, h("span", null, t("practicePace")), paceSelect)),
      practice,
    ),
  );
  return form;
}
