"""The table service slice: ``TableService`` and ``run`` (its process)."""

from __future__ import annotations

from paiju_services.tables.service import TableService

__all__ = ["TableService"]
