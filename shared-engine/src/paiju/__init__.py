"""Paiju (牌局): the rules engine of six regional Chinese card games.

Pure Python, no dependencies; the same code validates moves in the browser (Pyodide) and decides
them authoritatively in the services. Start with ``paiju.api``.
"""

__version__ = "0.1.0"
