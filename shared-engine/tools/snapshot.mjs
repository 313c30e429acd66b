// The engine's Pyodide snapshot, made by `make wheel` beside the wheel: Python started, the wheel
// unpacked and the modules the engine worker uses imported, then Pyodide's memory saved. The
// worker (web-client/js/engine-worker.js) starts from it instead of starting Python: about a
// second of a phone's CPU instead of four (measured on these machines: 3.3 s of Chromium's CPU
// for a page's engine instead of 7.3 s).
//
//   node shared-engine/tools/snapshot.mjs <pyodide.mjs> <the wheel> <out>
//
// The file is a header line, "paiju-snapshot <sha256 of the wheel, hex>\n", then the memory: the
// worker uses it only with the very wheel it was made from, and starts Python itself otherwise.
// Pyodide's snapshots are its own (`_makeSnapshot`, `makeMemorySnapshot`, `_loadSnapshot`), tied
// to its version, which package-lock.json pins; a new Pyodide rebuilds the wheel and this with it.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodidePath, wheelPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node snapshot.mjs <pyodide.mjs> <wheel> <out>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(pyodidePath).href);
const pyodide = await loadPyodide({ _makeSnapshot: true });
const wheel = readFileSync(wheelPath);
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.unpackArchive(new Uint8Array(wheel), "wheel", { extractDir: sitePackages });
// what the worker imports at its start; `_` names this script on the build machine: not kept
pyodide.runPython("import os, importlib; os.environ.pop('_', None); importlib.invalidate_caches()");
pyodide.runPython("import paiju.client, paiju.tracker");
const memory = pyodide.makeMemorySnapshot();
const digest = createHash("sha256").update(wheel).digest("hex");
writeFileSync(outPath, Buffer.concat([Buffer.from(`paiju-snapshot ${digest}\n`), memory]));
