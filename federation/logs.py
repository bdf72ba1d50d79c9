"""Log lines for standard output, as journald keeps them.

Under systemd (which sets ``JOURNAL_STREAM`` when standard output is the journal) each line starts with its syslog
priority, ``<3>`` for an error, which journald reads and strips (``sd-daemon(3)``), so ``journalctl -p err`` finds
the errors; journald adds the time itself. Elsewhere (a terminal, a file) the line starts with the time instead.
Every line of a record carries the prefix, so a traceback stays one priority.
"""

from __future__ import annotations

import logging
import os

PRIORITIES = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


class JournalFormatter(logging.Formatter):
    def __init__(self) -> None:
        self.journal = bool(os.environ.get("JOURNAL_STREAM"))
        layout = "%(levelname)s %(name)s: %(message)s"
        super().__init__(layout if self.journal else "%(asctime)s " + layout)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if not self.journal:
            return text
        level = max((lvl for lvl in PRIORITIES if lvl <= record.levelno), default=logging.DEBUG)
        prefix = f"<{PRIORITIES[level]}>"
        return "\n".join(prefix + line for line in text.splitlines())


class WithoutTraceback(logging.Filter):
    """A request for a host name the site does not serve (a scanner, the server's IP address) is answered 400 and
    noted as one warning line, not as an error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        return True


class HealthProbesAsWarnings(logging.Filter):
    """A 503 of the health address is the monitor's to report: noted as a warning, not mailed as an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if record.levelno >= logging.ERROR and getattr(request, "path", "") == "/health/":
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
