// Runs Python scripts inside Pyodide in a browser's module worker, as the product's engine worker
// runs the engine: the Chromium twin of run.mjs, driven by bench/pyodide_browser.py.
//
// Its page serves, from one origin: Pyodide under /pyodide/, the wheels under /wheels/<name>, the
// scripts under /scripts/<name> and the driver (driver.py, shared with run.mjs) at /driver.py.
// Each message { wheels: [names], script: name, arg: JSON text } runs one script; the first also
// loads Pyodide and installs the wheels, and later ones run in the same interpreter, as a player's
// worker runs every decision of a session. Each answer is { code, json, output }: the script's
// exit code, its result as JSON (null unless the code is 0) and what it printed.

import { loadPyodide } from "/pyodide/pyodide.mjs";

let output = "";
let loaded = null; // the driver's run function, once Pyodide and the wheels are in

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function text(url) {
  return new TextDecoder().decode(await bytes(url));
}

async function load(wheels) {
  const pyodide = await loadPyodide({
    indexURL: "/pyodide/",
    stdout: (line) => (output += `${line}\n`),
    stderr: (line) => (output += `${line}\n`),
  });
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const name of wheels) {
    pyodide.unpackArchive(await bytes(`/wheels/${name}`), "wheel", { extractDir: sitePackages });
  }
  const driverNs = pyodide.globals.get("dict")();
  pyodide.runPython(await text("/driver.py"), { globals: driverNs, filename: "driver.py" });
  return driverNs.get("_run_script");
}

async function run({ wheels, script, arg }) {
  loaded ??= load(wheels);
  const runScript = await loaded;
  const outcome = runScript(await text(`/scripts/${script}`), script, arg);
  const [code, json] = outcome.toJs();
  outcome.destroy();
  const printed = output;
  output = "";
  return { code, json: code === 0 ? json : null, output: printed };
}

self.onmessage = async ({ data }) => {
  try {
    self.postMessage(await run(data));
  } catch (err) {
    self.postMessage({ code: 2, json: null, output: `${output}worker.mjs: ${err.stack ?? err}\n` });
    output = "";
  }
};
