"""The browser tests' probes: test-only ES modules (``tests/e2e/probe/``) loaded in place of two of
the page's own, in the tests' browsers only, each wrapping the app's module (imported under another
URL) to let a test see what the page does: the live table's state and a tampered command
(``probe/table-state.js``: ``window.__table``, ``window.__tamper``), the sounds asked for
(``probe/audio.js``: ``window.__sounds``). The production bundle holds no test hook."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROBES = Path(__file__).parent / "probe"
# the table's state as the page's reducer last made it (tests read it, and wait on it)
STATE = "window.__table"


def install_probes(context: Any) -> None:
    """Load every probe in place of the page's module of the same name in this browser context:
    an import map, put in each page before its first script, sends the page's imports of
    ``/js/<name>`` to the probe (a ``data:`` URL), which imports the app's module as
    ``/js/<name>#real``. No request is intercepted: the HTTP cache and the service worker work as
    they do for a player."""
    probes = {
        probe.name: probe.read_text(encoding="utf-8") for probe in sorted(PROBES.glob("*.js"))
    }
    context.add_init_script(script=_IMPORT_MAP.replace("PROBES", json.dumps(probes)))


_IMPORT_MAP = """(() => {
  if (window.top !== window || !location.protocol.startsWith("http")) return;
  const imports = {};
  for (const [name, source] of Object.entries(PROBES)) {
    const real = JSON.stringify(`${location.origin}/js/${name}#real`);
    const text = source.replaceAll(`"./${name}#real"`, real);
    imports[`/js/${name}`] = `data:text/javascript,${encodeURIComponent(text)}`;
  }
  const map = document.createElement("script");
  map.type = "importmap";
  map.textContent = JSON.stringify({ imports });
  const place = () => document.documentElement.prepend(map);
  if (document.documentElement) place();
  else {
    const seen = new MutationObserver(() => {
      if (!document.documentElement) return;
      seen.disconnect();
      place();
    });
    seen.observe(document, { childList: true });
  }
})();"""


def engine(field: str) -> str:
    """A page function that reads the engine's state (``engine.js``'s own ``engine``) ``field``."""
    return f"async () => (await import('/js/engine.js')).engine.{field}"


def send_unchecked(page: Any, command: dict[str, Any], *clicks: str) -> str:
    """Send ``command`` as a tampered client would, unchecked: the page's next move, made by
    clicking ``clicks`` in turn, goes out as ``command`` instead (with an id of its own, and
    awaited as any move is). Returns the command's id."""
    before = page.evaluate(f"{STATE}.commands")
    page.evaluate(f"window.__tamper({json.dumps(command)})")
    for selector in clicks:
        page.click(selector)
    page.wait_for_function(f"{STATE}.commands > {before}")
    sent: str = page.evaluate(f"{STATE}.sentFrame.id")
    return sent
