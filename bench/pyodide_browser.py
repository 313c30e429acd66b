"""Runs bench scripts inside Pyodide where players run the engine: in a module worker of Debian's
headless Chromium (the browser the tests drive), not under node.

    with BrowserPyodide([wheel]) as browser:
        result = browser.run(BENCH_DIR / "engine_bench.py", {"same_again": ...}, timeout=300)

The twin of ``tools/pyodide/run.mjs`` (node): the same driver (``tools/pyodide/driver.py``) runs
each script with its global ``ARG`` and gives back ``RESULT``. One worker runs every script of a
``BrowserPyodide``, in one interpreter, as a player's engine worker runs a whole session: a later
run finds the WebAssembly already tiered up. A local server of this process serves one origin: the
npm Pyodide the product serves, the wheels, the scripts and ``tools/pyodide/worker.mjs``. Its
responses carry COOP and COEP headers, so the page is cross-origin isolated and
``performance.now`` (``time.perf_counter`` in Pyodide) ticks in 5 µs, not Chromium's 100 µs:
fine enough for whole games, too coarse for a single call of a few µs. Every request to another
origin is refused: nothing is downloaded.
"""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = ROOT / "web-client" / "node_modules" / "pyodide"
TOOLS = ROOT / "tools" / "pyodide"
sys.path.insert(0, str(ROOT / "tests"))

from harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (Debian's Chromium, as the tests drive it)

ISOLATED = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cache-Control": "no-store",
}
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

_PAGE = b"<!doctype html><meta charset=utf-8><title>Pyodide bench</title>"

# the page's side: the worker's answer to one message, bounded by the caller's timeout
_RUN = """async ({ message, timeoutMs }) => {
  window.pyodideWorker ??= new Worker("/worker.mjs", { type: "module" });
  const worker = window.pyodideWorker;
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    worker.onmessage = ({ data }) => {
      clearTimeout(timer);
      resolve(data);
    };
    worker.onerror = (event) => reject(new Error(`worker: ${event.message}`));
    worker.postMessage(message);
  });
}"""


def _handler(files: dict[str, Path]) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/":
                body, kind = _PAGE, "text/html; charset=utf-8"
            else:
                file = files.get(path)
                if file is None and path.startswith("/pyodide/"):
                    candidate = (PYODIDE_DIR / path.removeprefix("/pyodide/")).resolve()
                    if candidate.is_relative_to(PYODIDE_DIR.resolve()) and candidate.is_file():
                        file = candidate
                if file is None:
                    self.send_error(404)
                    return
                body = file.read_bytes()
                kind = TYPES.get(file.suffix, "application/octet-stream")
            self.send_response(200)
            for name, value in {**ISOLATED, "Content-Type": kind}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def _serving(files: dict[str, Path]) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(files))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def chromium_version() -> str:
    """The version of the Chromium the Pyodide rows run in."""
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "absent"
    return out.split()[1] if out.startswith("Chromium ") else out.strip()


class BrowserPyodide:
    """Chromium with one Pyodide worker, ``wheels`` installed, for the runs of ``run``."""

    def __init__(self, wheels: list[Path]) -> None:
        self.wheels = wheels
        self.files = {
            "/worker.mjs": TOOLS / "worker.mjs",
            "/driver.py": TOOLS / "driver.py",
            **{f"/wheels/{wheel.name}": wheel for wheel in wheels},
        }
        self._stack = ExitStack()
        self._page: Any = None

    def __enter__(self) -> BrowserPyodide:
        from playwright.sync_api import sync_playwright

        with ExitStack() as stack:
            origin = stack.enter_context(_serving(self.files))
            playwright = stack.enter_context(sync_playwright())
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
            context = browser.new_context()
            context.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith(origin + "/")
                    else route.abort("blockedbyclient")
                ),
            )
            self._page = context.new_page()
            self._page.goto(origin + "/")
            if not self._page.evaluate("crossOriginIsolated"):
                raise RuntimeError("the bench page is not cross-origin isolated")
            self._stack = stack.pop_all()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def run(self, script: Path, arg: Any, timeout: float) -> Any:
        """``script``'s result (parsed JSON); a failing script raises ``RuntimeError`` with what
        it printed."""
        self.files[f"/scripts/{script.name}"] = script
        message = {
            "wheels": [wheel.name for wheel in self.wheels],
            "script": script.name,
            "arg": json.dumps(arg),
        }
        answer = self._page.evaluate(_RUN, {"message": message, "timeoutMs": int(timeout * 1000)})
        if answer["code"] != 0:
            raise RuntimeError(
                f"Pyodide (Chromium) run of {script.name} failed:\n{answer['output']}"
            )
        return json.loads(answer["json"])


if __name__ == "__main__":  # a smoke run: python bench/pyodide_browser.py SCRIPT.py WHEEL [ARG]
    arg = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
    with BrowserPyodide([Path(sys.argv[2])]) as browser:
        print(json.dumps(browser.run(Path(sys.argv[1]), arg, 600)))
