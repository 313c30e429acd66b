"""Event logs, one job a module: each imports only what its job needs, so a program that writes
logs, or the gateway that checks a deal, does not load the audit and its sentences.

- ``paiju.log.file``: the file format (docs/log-format.md): the header line, one JSON event per
  line; writing a log and reading it back.
- ``paiju.log.deals``: the deal check: each hand's revealed seed against its commitment, and the
  dealt cards against the seeds (``verify_deal``).
- ``paiju.log.replay``: the audit: a log replayed through the rules' ``decide``, up to its first
  bad event (``audit``, its report ``Audit``).
- ``paiju.log.prose``: events, results and seats in words (``event_line``, ``result_lines``,
  ``seat_name``), for the audit's report and the terminal game alike.
- ``paiju.log.findings``: what an audit found wrong, or left unchecked, in words (``findings``).
- ``paiju.log.report``: the whole audit in words, as ``paiju audit`` prints it (``describe``).
- ``paiju.log.audit_json``: the audit as JSON for the browser's page that verifies a game
  (``audit_log``), with how far each check went.
"""
