// The lobby: the game catalogue, a form to open a table, the live tables to join or watch, and
// the history of finished games (newest first, paged, searched by game and player) to replay,
// export or audit. Lists refresh every few seconds while the lobby is open. The nickname typed
// here is the player's name wherever he sits (kept in this browser).

import * as api from "./api.js";
import { CARD_CODE, cardText } from "./cards.js";
import { $, clear, h } from "./dom.js";
import { auditLog } from "./engine.js";
import { CLOCK_CHOICES, clockOf } from "./clock.js";
import { both, getLang, t } from "./i18n.js";
import { isOnline, onOnline } from "./offline.js";
import { timeAgo, toast } from "./ui.js";

const REFRESH_MS = 4000;
const HISTORY_PAGE = 10;

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

function playersOf(game) {
  const all = new Set(game.variants.flatMap((v) => v.players));
  const list = [...all].sort((a, b) => a - b);
  return list.length > 1 ? `${list[0]}–${list.at(-1)}` : String(list[0]);
}

/** The first sentence or two of a description: the card's summary. */
function summary(text) {
  const parts = text.split(/(?<=[。.!?！？])\s*/);
  let out = parts[0] ?? text;
  if (out.length < 40 && parts[1]) out += parts[1];
  return out;
}

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

export function mountLobby(root) {
  const state = {
    games: null,
    live: null,
    chosen: null,
    error: null,
    // the history: its search, the rows loaded so far, whether a next page may follow
    history: { game: "", player: "", rows: null, more: false, audits: {} },
  };
  let historyQuery = 0; // the latest search: an older answer arriving late is dropped
  let timer = null;
  let dead = false;

  const view = h("div.lobby");
  root.append(view);

  async function load() {
    const firstLoad = !state.games;
    try {
      state.games ??= await catalog();
      state.chosen ??= state.games[0]?.id ?? null;
      if (!isOnline()) throw new api.ApiError(0, { code: "network" }); // nothing to ask for
      const first = (state.history.rows?.length ?? 0) <= HISTORY_PAGE; // not paged further
      const [live] = await Promise.all([api.tables("live"), first ? searchHistory(false) : null]);
      state.live = live;
      state.error = null;
    } catch (err) {
      state.error = err;
    }
    if (dead) return;
    if (firstLoad && state.games) render();
    else renderLists();
  }

  function render() {
    const games = state.games;
    clear(
      view,
      h(
        "section.hero",
        null,
        h("h1", null, t("appName"), getLang() === "zh" ? h("span.hero-en", null, "Paiju") : null),
        h("p", null, t("tagline")),
      ),
      h(
        "div.lobby-grid",
        null,
        h(
          "div.lobby-main",
          null,
          h("section.panel#catalog", null, h("h2", null, t("games")), games ? renderCatalog(games) : h("p.muted", null, t("loading"))),
        ),
        h(
          "div.lobby-side",
          null,
          h("section.panel#create", null, h("h2", null, t("newTable")), games ? renderCreate(games) : null),
          h("section.panel#live", null, h("h2", null, t("liveTables")), h("div.list#live-list")),
          h(
            "section.panel#finished",
            null,
            h("h2", null, t("finishedTables")),
            games ? renderHistorySearch(games) : null,
            h("div.list#finished-list"),
            h("div.history-more#history-more"),
            h("p.muted.lobby-verify", null, h("a#lobby-verify", { href: "#/verify" }, t("verifyFile"))),
          ),
        ),
      ),
    );
    renderLists();
  }

  function renderCatalog(games) {
    return h(
      "div.game-cards",
      null,
      games.map((game) =>
        h(
          "article.game-card",
          { dataset: { game: game.id } },
          h(
            "header",
            null,
            h("h3", null, getLang() === "zh" ? game.name_zh : game.name_en),
            h("span.game-alt", null, getLang() === "zh" ? game.name_en : game.name_zh),
          ),
          h(
            "p.meta",
            null,
            h("span", null, getLang() === "zh" ? game.region_zh : game.region_en),
            h("span", null, t("playersN", { n: playersOf(game) })),
          ),
          h("p.summary", null, summary(getLang() === "zh" ? game.description_zh : game.description_en)),
          h(
            "ul.variant-chips",
            null,
            game.variants.map((v) => h("li", { title: getLang() === "zh" ? v.summary_zh : v.summary_en }, variantName(v))),
          ),
          h(
            "footer",
            null,
            h("a.button.ghost", { href: `#/rules/${game.id}` }, t("rules")),
            h(
              "button.button",
              {
                type: "button",
                on: {
                  click: () => {
                    state.chosen = game.id;
                    render();
                    $("#create")?.scrollIntoView({ behavior: "smooth", block: "start" });
                  },
                },
              },
              t("pickGame"),
            ),
          ),
        ),
      ),
    );
  }

  function renderCreate(games) {
    const game = games.find((g) => g.id === state.chosen) ?? games[0];
    const gameSelect = h(
      "select#create-game",
      { name: "game", on: { change: (e) => { state.chosen = e.target.value; render(); } } },
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
    const opponents = h(
      "select#create-opponents",
      { name: "opponents" },
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
    const levelSelect = h(
      "select#practice-level",
      { name: "level" },
      (game.levels ?? []).map((level, i) => h("option", { value: level.id, selected: i === 0 }, getLang() === "zh" ? level.name_zh : level.name_en)),
    );
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
            const query = new URLSearchParams({ players: playersSelect.value, clock: clockSelect.value, level: levelSelect.value, pace: paceSelect.value });
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
                await api.addBots(created.id, others);
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
      h("label", null, h("span", null, t("yourName")), name),
      submit,
      h(
        "fieldset.practice-box",
        null,
        h("legend", null, t("practiceStart")),
        h("p.muted.practice-hint", null, t(isOnline() ? "practiceHint" : "offlineCreate")),
        h("div.practice-row", null, h("label", null, h("span", null, t("practiceLevel")), levelSelect), h("label", null, h("span", null, t("practicePace")), paceSelect)),
        practice,
      ),
    );
    return form;
  }

  function seatChips(tbl) {
    return h(
      "ul.seat-chips",
      null,
      tbl.seats.map((s, i) =>
        h(
          `li.${s.kind}`,
          null,
          s.kind === "empty" ? t("emptySeat") : s.kind === "bot" ? t("botName", { n: (s.seat ?? i) + 1 }) : (s.name ?? "?"),
          s.left ? h("span.badge.left", null, t("seatLeftBadge")) : null,
        ),
      ),
    );
  }

  function gameLabel(tbl) {
    const game = state.games?.find((g) => g.id === tbl.game);
    return `${gameName(game) || tbl.game} · ${variantName(variantOf(game, tbl.variant)) || tbl.variant}`;
  }

  function renderLists() {
    const live = $("#live-list", view);
    const finished = $("#finished-list", view);
    if (!live || !finished) return;
    if (state.error && !isOnline()) {
      clear(live, h("p.muted.offline", { role: "status" }, t("offlineLobby")));
      return;
    }
    if (state.error) {
      clear(live, h("p.error", null, `${t("errorPrefix")}${getLang() === "zh" ? state.error.zh : state.error.en}`));
      return;
    }
    if (state.live === null) return;
    clear(
      live,
      state.live.length === 0
        ? h("p.muted", null, t("noLiveTables"))
        : state.live.map((tbl) => {
            const mine = api.seatToken(tbl.id);
            const open = tbl.seats.some((s) => s.kind === "empty");
            return h(
              "div.table-row",
              { dataset: { table: tbl.id, status: tbl.status } },
              h(
                "div.row-main",
                null,
                h("strong", null, gameLabel(tbl)),
                h("span.badge", { dataset: { status: tbl.status } }, tbl.status === "open" ? t("statusOpen") : t("statusPlaying")),
                seatChips(tbl),
              ),
              h(
                "div.row-actions",
                null,
                mine ? h("a.button.primary", { href: `#/table/${tbl.id}` }, t("sit")) : null,
                !mine && open ? h("button.button", { type: "button", on: { click: () => sitAt(tbl) } }, t("sit")) : null,
                h("a.button.ghost.watch-link", { href: `#/watch/${tbl.id}` }, t("watch")),
              ),
            );
          }),
    );
    renderHistory();
  }

  // --- the history of finished games ---------------------------------------------------------
  /** The first page of the history for the search as it is (or, `next`, the page after the
   * rows loaded); drawn when it comes, unless a newer search was started meanwhile. */
  async function searchHistory(next) {
    const query = ++historyQuery;
    const hist = state.history;
    const before = next && hist.rows?.length ? hist.rows.at(-1).finished_at : null;
    const rows = await api.history({ game: hist.game, player: hist.player, before, pageSize: HISTORY_PAGE });
    if (query !== historyQuery || dead) return;
    hist.rows = next ? [...(hist.rows ?? []), ...rows] : rows;
    hist.more = rows.length === HISTORY_PAGE;
  }

  function renderHistorySearch(games) {
    const hist = state.history;
    let typing = null;
    const search = async () => {
      try {
        await searchHistory(false);
        renderHistory();
      } catch (err) {
        toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh : err.en}`, "error");
      }
    };
    return h(
      "form.history-search#history-search",
      { role: "search", on: { submit: (e) => { e.preventDefault(); search(); } } },
      h(
        "select#history-game",
        { name: "game", "aria-label": t("historyGame"), on: { change: (e) => { hist.game = e.target.value; search(); } } },
        h("option", { value: "" }, t("historyAllGames")),
        games.map((g) => h("option", { value: g.id, selected: g.id === hist.game }, gameName(g))),
      ),
      h("input#history-player", {
        type: "search",
        name: "player",
        value: hist.player,
        maxLength: 32,
        placeholder: t("historyPlayer"),
        "aria-label": t("historyPlayer"),
        on: {
          input: (e) => {
            hist.player = e.target.value;
            clearTimeout(typing);
            typing = setTimeout(search, 300);
          },
        },
      }),
    );
  }

  function renderHistory() {
    const finished = $("#finished-list", view);
    const more = $("#history-more", view);
    if (!finished || !more) return;
    const hist = state.history;
    if (hist.rows === null) return;
    const searching = hist.game || hist.player.trim();
    clear(
      finished,
      hist.rows.length === 0
        ? h("p.muted", null, searching ? t("historyNone") : t("noFinishedTables"))
        : hist.rows.map((tbl) => historyRow(tbl)),
    );
    clear(
      more,
      hist.more
        ? h(
            "button.button.ghost#history-next",
            {
              type: "button",
              on: {
                click: async (e) => {
                  e.target.disabled = true;
                  try {
                    await searchHistory(true);
                  } catch (err) {
                    toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh : err.en}`, "error");
                  }
                  renderHistory();
                },
              },
            },
            t("historyMore"),
          )
        : null,
    );
  }

  function historyRow(tbl) {
    const audit = state.history.audits[tbl.id];
    return h(
      "div.table-row",
      { dataset: { table: tbl.id, status: tbl.status } },
      h(
        "div.row-main",
        null,
        h("strong", null, gameLabel(tbl)),
        h("span.muted", null, timeAgo(tbl.finished_at)),
        h(
          "ul.seat-chips",
          null,
          tbl.seats.map((s, i) =>
            h(
              `li.${s.kind}`,
              null,
              `${s.kind === "bot" ? t("botName", { n: i + 1 }) : (s.name ?? t("seatN", { n: i + 1 }))} ${tbl.totals ? (tbl.totals[i] > 0 ? "+" : "") + tbl.totals[i] : ""}`,
              s.left ? h("span.badge.left", null, t("seatLeftBadge")) : null,
            ),
          ),
        ),
        audit ? h("a.audit-verdict", { href: `#/verify/${tbl.id}`, title: t("verifyInBrowser"), dataset: { verdict: audit.verdict } }, audit.text) : null,
      ),
      h(
        "div.row-actions",
        null,
        h("a.button.replay-link", { href: `#/replay/${tbl.id}` }, t("replay")),
        h(
          "a.button.ghost.export-link",
          { href: `/api/tables/${tbl.id}/log?format=jsonl`, download: `${tbl.id}.jsonl`, title: t("exportTitle") },
          t("export"),
        ),
        h("button.button.ghost.audit-button", { type: "button", title: t("auditTitle"), on: { click: () => auditTable(tbl.id) } }, t("audit")),
      ),
    );
  }

  /** `paiju audit` of the table's exported log, run by the engine in this browser. */
  async function auditTable(id) {
    const audits = state.history.audits;
    audits[id] = { verdict: "running", text: t("auditRunning") };
    renderHistory();
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(id)}/log?format=jsonl`, { cache: "no-store" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const report = await auditLog(await response.text(), getLang());
      const word = { sound: t("auditSound"), incomplete: t("auditIncomplete"), failed: t("auditFailed") }[report.verdict] ?? report.verdict;
      audits[id] = { verdict: report.verdict, text: word };
    } catch (err) {
      audits[id] = { verdict: "error", text: `${t("errorPrefix")}${err.message}` };
    }
    if (!dead) renderHistory();
  }

  async function sitAt(tbl) {
    try {
      const joined = await api.joinSeat(tbl.id, api.playerName(), null, api.newSeed());
      api.saveSeatToken(tbl.id, joined.seat, joined.token);
      location.hash = `#/table/${tbl.id}`;
    } catch (err) {
      toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh : err.en}`, "error");
    }
  }

  render();
  load();
  timer = setInterval(load, REFRESH_MS);
  const stopListening = onOnline(() => load()); // the network back (or gone): say so at once
  return {
    unmount() {
      dead = true;
      clearInterval(timer);
      stopListening();
    },
    rerender: render,
  };
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
