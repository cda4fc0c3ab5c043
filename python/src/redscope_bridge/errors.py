"""Protocol errors: a status, a snake_case code and a message for people."""

from __future__ import annotations


class ProtocolError(Exception):
    """Becomes ``{"error": {"code", "message"}}`` with this status (docs/target-protocol.md)."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def error_text(exc: BaseException) -> str:
    """``"<ExceptionType>: <message>"``, as the reference servers report a failed run."""
    return f"{type(exc).__name__}: {exc}"
