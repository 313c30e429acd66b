// Where the page finds what the gateway serves. Everything comes from our own server: no CDN.
//
// ENGINE_WHEEL must name the wheel `make wheel` builds (dist/ is served at /wheels/);
// tests/e2e/test_static.py checks it against shared-engine/pyproject.toml's version.
export const PYODIDE_URL = "/pyodide/";
export const ENGINE_WHEEL = "/wheels/paiju-0.1.0-py3-none-any.whl";
export const ENGINE_SNAPSHOT = "/wheels/engine.snapshot"; // made beside the wheel (make wheel)
export const RULES_URL = "/rules/"; // docs/rules/<game>.md (web-client/rules links to docs/rules)
export const GUIDE_URL = "/guide/"; // web-client/guide/<game>.<lang>.md: the players' rules pages
