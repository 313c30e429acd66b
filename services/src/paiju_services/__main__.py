"""``python -m paiju_services SERVICE [--flags]``: run one service process.

SERVICE is ``tables`` (the table service), ``bots`` (the bots service) or ``gateway`` (the HTTP
and WebSocket gateway). Flags and ``PAIJU_*`` variables are the fields of ``config.Settings``.
``python -m paiju_services.launcher CONFIG`` starts a whole system from a deploy/ config.
"""

from __future__ import annotations

import sys

from paiju_services import config
from paiju_services.runner import main as run_main
from paiju_services.runner import run_service

SERVICES = ("tables", "bots", "gateway")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in SERVICES:
        print(
            f"usage: python -m paiju_services {{{','.join(SERVICES)}}} [--flags]", file=sys.stderr
        )
        return 2
    name, rest = args[0], args[1:]
    settings = config.load(name, rest)
    if name == "tables":
        from paiju_services.tables import TableService

        run_main(name, settings, lambda: run_service(name, settings, TableService))
    elif name == "bots":
        from paiju_services.bots import BotService

        run_main(name, settings, lambda: run_service(name, settings, BotService))
    else:
        from paiju_services.gateway.app import serve

        run_main(name, settings, lambda: serve(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
