// Verify a game in your own browser. A log file dropped or chosen here (#/verify), or a finished
// table's log fetched from our gateway (#/verify/<table id>, GET /api/tables/<id>/log?format=jsonl;
// a practice table's, #/verify/practice-…, from this browser's keeping: practice-store.js),
// is audited by the rules engine in the worker: paiju.log.audit_json.audit_log, the very audit that
// `paiju audit` runs (paiju.log.replay.audit and its sentences, paiju.log.report.describe), so the
// verdict here is the command's. Nothing is re-checked in JavaScript and the log is never sent
// anywhere.
//
// The page shows the verdict (可信 / 不完整 / 有问题), what was checked (the deal against the
// commitment and the seeds, every event through the rules, the scores), what is wrong or left
// unchecked in the engine's words (cards named as players read them), and the whole report as
// the command prints it. The text is decoded as the command reads a file: strict UTF-8, a byte
// order mark kept (the command refuses both what is not UTF-8 and a header behind a BOM).

import { ApiError } from "./api.js";
import { isPracticeTable, keptPracticeAt } from "./practice-store.js";
import { clear, h } from "./dom.js";
import { auditLog, engine } from "./engine.js";
import { both, t } from "./i18n.js";

const MAX_MB = 32; // a log of the most events a table may hold is a few MB
// marks drawn as SVG strokes (a font may draw ✓ as √): a tick, a cross, a bang, a dash
const MARKS = {
  ok: "M5 12.5l4.5 4.5L19 7.5",
  failed: "M7 7l10 10M17 7L7 17",
  partial: "M12 5.5v8.5M12 18.5v0.5",
  none: "M7 12h10",
};
const VERDICT_MARK = { sound: "ok", incomplete: "partial", failed: "failed" };
const CHECK_KEY = { deal: "checkDeal", rules: "checkRules", scores: "checkScores" };

export function mountVerify(root, tableId = null) {
  const s = {
    report: null, // the worker's audit_log answer, texts as {zh, en}
    source: null, // {file: name} | {table: id}
    status: null, // {key, params}: what the page is doing now
    error: null, // {key, params} | {zh, en}
    run: 0, // one per log audited: an older answer arriving late is dropped
    dead: false,
  };
  const page = h("article.verify-page", { dataset: { state: "idle", table: tableId ?? "" } });
  root.append(page);

  const input = h("input.visually-hidden#verify-file", {
    type: "file",
    accept: ".jsonl,.ndjson,.json,.txt,.log,application/x-ndjson,application/json,text/plain",
    on: {
      change: () => {
        if (input.files?.[0]) verifyFile(input.files[0]);
        input.value = ""; // the same file chosen again is read again
      },
    },
  });
  const drop = h("label.verify-drop#verify-drop", { dataset: { over: "" } });

  // a file dropped anywhere on the page is taken (never opened by the browser in place of it)
  const onDragOver = (e) => {
    if (tableId || !e.dataTransfer?.types?.includes("Files")) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
    drop.dataset.over = "1";
  };
  const onDragLeave = (e) => {
    if (!e.relatedTarget) drop.dataset.over = "";
  };
  const onDrop = (e) => {
    if (tableId) return;
    e.preventDefault();
    drop.dataset.over = "";
    const file = e.dataTransfer?.files?.[0];
    if (file) verifyFile(file);
  };
  document.addEventListener("dragover", onDragOver);
  document.addEventListener("dragleave", onDragLeave);
  document.addEventListener("drop", onDrop);

  function setState(state) {
    page.dataset.state = state;
    render();
  }

  async function verifyFile(file) {
    const run = ++s.run;
    s.source = { file: file.name };
    s.report = null;
    s.error = null;
    if (file.size > MAX_MB * 1024 * 1024) {
      s.error = { key: "verifyTooBig", params: { name: file.name, mb: Math.round(file.size / 1048576) } };
      setState("error");
      return;
    }
    s.status = { key: "verifyReading", params: { name: file.name } };
    setState("working");
    let text;
    try {
      text = decode(await file.arrayBuffer());
    } catch {
      if (run !== s.run || s.dead) return;
      s.error = { key: "verifyNotText", params: { name: file.name } };
      setState("error");
      return;
    }
    await verifyText(text, run);
  }

  async function verifyTable() {
    const run = ++s.run;
    s.source = { table: tableId };
    s.status = { key: "verifyFetching", params: {} };
    setState("working");
    let text;
    try {
      if (isPracticeTable(tableId)) text = (await keptPracticeAt(tableId))?.log ?? "";
      else text = await servedLog(tableId);
    } catch (err) {
      if (run !== s.run || s.dead) return;
      s.error = err instanceof ApiError || err?.zh ? { zh: err.zh, en: err.en } : { key: "verifyFailedRun", params: { reason: err.message } };
      setState("error");
      return;
    }
    await verifyText(text, run);
  }

  /** A finished table's log as our gateway serves it, decoded as the command reads a file.
   * @param {string} id */
  async function servedLog(id) {
    const response = await fetch(logUrl(id), { cache: "no-store" });
    if (!response.ok) {
      let body = null;
      try {
        body = await response.json();
      } catch {
        body = null;
      }
      throw new ApiError(response.status, body);
    }
    return decode(await response.arrayBuffer());
  }

  async function verifyText(text, run) {
    if (run !== s.run || s.dead) return;
    const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim()).length;
    s.status = engine.stage === "ready" ? { key: "verifyRunning", params: { n: lines } } : { key: "verifyWaitEngine", params: {} };
    setState("working");
    try {
      await engine.ready;
      if (run !== s.run || s.dead) return;
      s.status = { key: "verifyRunning", params: { n: lines } };
      render();
      const report = await auditLog(text);
      if (run !== s.run || s.dead) return;
      s.report = report;
      page.dataset.verdict = report.verdict;
      page.dataset.run = String(run);
      setState("done");
    } catch (err) {
      if (run !== s.run || s.dead) return;
      s.error = { key: "verifyFailedRun", params: { reason: err?.message ?? String(err) } };
      setState("error");
    }
  }

  function render() {
    if (page.dataset.state !== "done") delete page.dataset.verdict;
    const short = tableId ? tableId.slice(0, 8) : "";
    clear(
      page,
      h("a.back", { href: tableId ? `#/replay/${tableId}` : "#/" }, `← ${t(tableId ? "verifyBackReplay" : "backToLobby")}`),
      h("h1", null, t("verifyTitle")),
      h("p.lead", null, t("verifyLead")),
      tableId
        ? h(
            "p.verify-source",
            null,
            t("verifyTableLead", { id: short }),
            " ",
            h("a#verify-download", { href: logUrl(tableId), download: `${tableId}.jsonl` }, t("verifyDownload")),
            " · ",
            h("a#verify-any", { href: "#/verify" }, t("verifyFile")),
          )
        : dropZone(),
      s.status && page.dataset.state === "working" ? h("p.verify-status#verify-status", { role: "status" }, t(s.status.key, s.status.params)) : null,
      s.error && page.dataset.state === "error" ? h("p.error.verify-error#verify-error", { role: "alert" }, s.error.key ? t(s.error.key, s.error.params) : both(s.error)) : null,
      s.report && page.dataset.state === "done" ? result(s.report) : null,
    );
  }

  function dropZone() {
    // once a log is being checked or has been, the zone shrinks to a line above the verdict
    drop.dataset.compact = s.source ? "1" : "";
    clear(
      drop,
      input,
      h("span.verify-drop-icon", { "aria-hidden": "true" }, dropIcon()),
      h("strong", null, t("verifyDrop")),
      h("span.muted", null, t("verifyOr")),
      h("span.button.primary.verify-pick", null, t("verifyPick")),
    );
    return h("div.verify-drop-host", null, drop, h("p.muted.verify-hint", null, t("verifyFileHint")));
  }

  function result(r) {
    const source = s.source?.file ? t("verifySource", { name: s.source.file }) : t("verifySourceTable", { id: tableId.slice(0, 8) });
    const summary = r.game ? both(r.lines[0]) : null;
    const findings = r.findings ?? [];
    return h(
      "section.verify-result#verify-result",
      { dataset: { verdict: r.verdict } },
      h(
        "div.verdict#verdict",
        { dataset: { verdict: r.verdict }, role: "status" },
        h("span.verdict-mark", { "aria-hidden": "true" }, mark(VERDICT_MARK[r.verdict])),
        h("div.verdict-text", null, h("strong.verdict-word", null, t(`verdict_${r.verdict}`)), h("span.verdict-say", null, t(`verdictSay_${r.verdict}`))),
      ),
      h("p.verify-summary.muted", null, [source, summary].filter(Boolean).join(" · ")),
      h("h2", null, t("verifyChecked")),
      h("ul.verify-checks#verify-checks", null, r.checks.map(checkItem)),
      findings.length
        ? [
            h("h2", null, t(r.verdict === "failed" ? "verifyFindings" : "verifyFindingsIncomplete")),
            h("ul.verify-findings#verify-findings", { dataset: { verdict: r.verdict } }, findings.map(sentence)),
          ]
        : null,
      h("details.verify-report#verify-report", null, h("summary", null, t("verifyReport")), h("ol", null, r.lines.map(sentence))),
    );
  }

  /** One of the three checks: its mark, its name, how far it went, in words. */
  function checkItem(c) {
    const n = c.check === "rules" ? c.events : c.hands;
    let text = t(`${CHECK_KEY[c.check]}_${checkForm(c)}`, { n, v: c.verified, k: c.checked, line: c.line });
    if (c.status === "failed" && c.line && c.check !== "rules") text += t("checkAtLine", { line: c.line });
    return h(
      "li",
      { dataset: { check: c.check, status: c.status } },
      h("span.check-mark", { "aria-hidden": "true" }, mark(c.status)),
      h("span.check-head", null, h("strong", null, t(`check_${c.check}`)), h("span.check-status", null, t(`checkStatus_${c.status}`))),
      h("span.check-text", null, text),
    );
  }

  if (tableId) verifyTable();
  else render();

  return {
    unmount() {
      s.dead = true;
      document.removeEventListener("dragover", onDragOver);
      document.removeEventListener("dragleave", onDragLeave);
      document.removeEventListener("drop", onDrop);
    },
    rerender: render,
  };
}

/** Which sentence tells a check: its status, or a closer form of it (the log cut short, a seed
 * not revealed yet, a single hand). */
function checkForm(c) {
  if (c.check === "rules") return c.status === "partial" && c.checked === c.events ? "cut" : c.status;
  if (c.check === "deal" && c.status === "partial") return c.verified ? "partial" : "unrevealed";
  return ["ok", "partial"].includes(c.status) && c.hands === 1 ? `${c.status}1` : c.status;
}

/** A sentence of the audit; one the engine indents (a detail of the line above) is marked so. */
function sentence(text) {
  const said = both(text);
  return h("li", { dataset: { detail: /^\s/.test(said) ? "1" : "" } }, said.trim());
}

function logUrl(id) {
  return `/api/tables/${encodeURIComponent(id)}/log?format=jsonl`;
}

/** Bytes as the command reads a file: UTF-8 or nothing, and a byte order mark kept as text.
 * Throws a TypeError on bytes that are not UTF-8. */
function decode(buffer) {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buffer);
}

function mark(kind) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", MARKS[kind]);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "2.8");
  path.setAttribute("stroke-linecap", "round");
  path.setAttribute("stroke-linejoin", "round");
  svg.append(path);
  return svg;
}

function dropIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "34");
  svg.setAttribute("height", "34");
  const path = document.createElementNS(ns, "path");
  // a sheet with a folded corner, and a tick on it
  path.setAttribute("d", "M6 2h8l5 5v15H6z M14 2v5h5 M9 14l2.5 2.5L16 12");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "1.6");
  path.setAttribute("stroke-linejoin", "round");
  path.setAttribute("stroke-linecap", "round");
  svg.append(path);
  return svg;
}
