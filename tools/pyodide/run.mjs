#!/usr/bin/env node
// Run a Python script inside Pyodide under node, with local wheels installed.
//
//   node tools/pyodide/run.mjs --wheel dist/paiju-0.1.0-py3-none-any.whl --script FILE.py [--arg JSON]
//
// Pyodide is loaded from web-client/node_modules/pyodide (override: PAIJU_PYODIDE_DIR); every
// network fetch is refused, so nothing is ever downloaded. The script sees a global ARG (the
// parsed --arg JSON, default null). Its result is the global RESULT if the script sets one,
// otherwise the value of its final expression statement (null if none); it is printed as one
// line of JSON on stdout. Anything the script prints goes to stderr, so stdout stays parseable.
// An uncaught exception prints the Python traceback on stderr and exits 1; sys.exit(n) exits n.
// --wheel may be repeated. Exit 2 means bad usage or a missing file.

import { readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const USAGE =
  "usage: node tools/pyodide/run.mjs --wheel WHEEL.whl [--wheel ...] --script FILE.py [--arg JSON]";

function fail(message, code = 2) {
  writeSync(2, `run.mjs: ${message}\n`);
  process.exit(code);
}

function writeAll(fd, text) {
  const buf = Buffer.from(text);
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off);
}

let opts;
try {
  opts = parseArgs({
    options: {
      wheel: { type: "string", multiple: true, default: [] },
      script: { type: "string" },
      arg: { type: "string", default: "null" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (err) {
  fail(`${err.message}\n${USAGE}`);
}
if (opts.help) {
  writeAll(1, `${USAGE}\n`);
  process.exit(0);
}
if (!opts.script) fail(`--script is required\n${USAGE}`);
try {
  JSON.parse(opts.arg);
} catch (err) {
  fail(`--arg is not valid JSON: ${err.message}`);
}

function readOrFail(file, what) {
  try {
    return readFileSync(file);
  } catch (err) {
    return fail(`cannot read ${what} ${file}: ${err.message}`);
  }
}
const scriptPath = path.resolve(opts.script);
const scriptSource = readOrFail(scriptPath, "script").toString("utf8");
const wheels = opts.wheel.map((w) => ({ name: path.basename(w), data: readOrFail(w, "wheel") }));

const pyodideDir = path.resolve(
  process.env.PAIJU_PYODIDE_DIR ?? path.join(REPO, "web-client", "node_modules", "pyodide"),
);
const indexURL = pyodideDir + path.sep;

// Pyodide reads local paths with node:fs; it only fetches for URLs (the CDN fallback for
// packages missing from the core distribution). Refuse all of that.
globalThis.fetch = async (input) => {
  const url = typeof input === "string" ? input : (input?.url ?? String(input));
  throw new Error(`run.mjs: network access refused (${url})`);
};

let loadPyodide;
try {
  ({ loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href));
} catch (err) {
  fail(`cannot load Pyodide from ${pyodideDir} (run 'make' to install it): ${err.message}`);
}

// Python's stdout and stderr both go to our stderr, unbuffered and byte-exact.
const toStderr = { write: (bytes) => writeSync(2, bytes), isatty: false };
const pyodide = await loadPyodide({
  indexURL,
  packageCacheDir: indexURL,
  env: { HOME: "/home/pyodide" },
  stdout: (line) => writeAll(2, `${line}\n`),
  stderr: (line) => writeAll(2, `${line}\n`),
});
pyodide.setStdout(toStderr);
pyodide.setStderr(toStderr);

const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
for (const wheel of wheels) {
  try {
    // unpackArchive wants a Uint8Array; a node Buffer is rejected.
    pyodide.unpackArchive(new Uint8Array(wheel.data), "wheel", { extractDir: sitePackages });
  } catch (err) {
    fail(`cannot install wheel ${wheel.name}: ${err.message}`);
  }
}

// The script runner, shared with the Chromium harness (worker.mjs).
const DRIVER = readOrFail(path.join(HERE, "driver.py"), "driver").toString("utf8");

const driverNs = pyodide.globals.get("dict")();
pyodide.runPython(DRIVER, { globals: driverNs, filename: "<run.mjs driver>" });
const runScript = driverNs.get("_run_script");
const outcome = runScript(scriptSource, scriptPath, opts.arg);
const [code, json] = outcome.toJs();
outcome.destroy();
runScript.destroy();
driverNs.destroy();

if (code === 0) writeAll(1, `${json}\n`);
process.exitCode = code;
