"""End-to-end tests: the real stack (``python -m paiju_services.launcher``, as ``make run`` starts
it) on free ports, driven through Debian's headless Chromium with Playwright for Python."""
