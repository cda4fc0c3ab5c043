"""The log lines of the libraries under the bridge (aiohttp, asyncio): one line each, no traceback, secrets masked.

aiohttp logs a malformed request line ("Error handling request") with its whole traceback: a dozen lines
a probe, which bury the one line per request the bridge writes itself.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

#: A line longer than this is cut: a hostile request must not fill the log either.
MAX_LINE_CHARS = 500


class OneLineFormatter(logging.Formatter):
    def __init__(self, redact: Callable[[str], str]) -> None:
        super().__init__()
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            message = f"{message}: {type(exc).__name__}: {exc}"
        line = self._redact(f"{record.name}: {' '.join(message.split())}")
        return line if len(line) <= MAX_LINE_CHARS else f"{line[: MAX_LINE_CHARS - 1]}…"


def one_line_logging(redact: Callable[[str], str], stream: object = None) -> None:
    """Routes aiohttp's and asyncio's loggers to *stream* (stderr), one line a record."""
    handler = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
    handler.setFormatter(OneLineFormatter(redact))
    for name in ("aiohttp", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
