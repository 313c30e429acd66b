"""Runs a script inside Pyodide for the bench's and the tests' harnesses (tools/pyodide/run.mjs under
node, tools/pyodide/worker.mjs in Chromium): ``_run_script(source, filename, arg_json)`` runs the
script with the global ``ARG`` (the parsed JSON) and returns ``(exit code, result as JSON)``. The
result is the global ``RESULT`` if the script sets one, otherwise the value of its final expression
statement; an uncaught exception prints its traceback on stderr and gives exit code 1.
"""

import ast
import importlib
import json
import linecache
import sys
import traceback


def _run_script(source: str, filename: str, arg_json: str) -> tuple[int, str | None]:
    importlib.invalidate_caches()
    # The script is not in Pyodide's file system: give tracebacks its source lines.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ns = {"__name__": "__main__", "__file__": filename, "__builtins__": __builtins__}
    ns["ARG"] = json.loads(arg_json)
    try:
        tree = ast.parse(source, filename)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, filename, "exec"), ns)
        value = eval(compile(last, filename, "eval"), ns) if last is not None else None
        if "RESULT" in ns:
            value = ns["RESULT"]
        return 0, json.dumps(value, ensure_ascii=False)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0, "null"
        if isinstance(code, int):
            return code, None
        print(code, file=sys.stderr)
        return 1, None
    except BaseException as exc:
        tb = exc.__traceback__
        if tb is not None and tb.tb_frame.f_code is _run_script.__code__:
            tb = tb.tb_next  # hide this driver's own frame
        traceback.print_exception(type(exc), exc, tb)
        return 1, None
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
