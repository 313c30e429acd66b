// Small pieces of UI shared by the pages: the toast, what a screen reader is told, copying a
// link, a relative time.

import { $ } from "./dom.js";
import { getLang, onLang } from "./i18n.js";

let toastTimer = null;

export function toast(message, kind = "info", ms = 3200) {
  const el = $("#toast");
  el.textContent = message;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, ms);
}

const SAID_KEPT = 4; // the latest lines stay in the region (a reader hears each once, as added)

/** Tell a screen reader `text`, politely (after what it is reading): a line added to the page's
 * one live region (#announcer in index.html, visually hidden), which keeps only the latest few.
 * A line repeated is a new line, so it is heard again. */
export function say(text) {
  const region = $("#announcer");
  if (!region || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > SAID_KEPT) region.firstElementChild.remove();
}

/** Forget what the live region holds (a page left; lines in the other language). */
export function unsay() {
  $("#announcer")?.replaceChildren();
}

onLang(unsay);

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

export function timeAgo(epochSeconds) {
  if (!epochSeconds) return "";
  const s = Math.max(0, Date.now() / 1000 - epochSeconds);
  const zh = getLang() === "zh";
  if (s < 60) return zh ? "刚刚" : "just now";
  if (s < 3600) return zh ? `${Math.floor(s / 60)} 分钟前` : `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return zh ? `${Math.floor(s / 3600)} 小时前` : `${Math.floor(s / 3600)} h ago`;
  return new Date(epochSeconds * 1000).toLocaleDateString(zh ? "zh-CN" : "en");
}

export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
