"""What a request must be before it may act: from an allowed page, a JSON body, nested no deeper than 1,000 levels.

The same rules as the TypeScript server (src/servers/http): a browser sends a cross-origin "simple" request
(a POST with a text/plain or form body) without asking first, so the refusal must come before any effect,
not from the missing CORS headers of the answer.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable

from redscope_bridge.errors import ProtocolError

#: As the TypeScript side's MAX_JSON_DEPTH: Python's own json module gives up (RecursionError) a little past it.
MAX_JSON_DEPTH = 1000

# A string to its closing quote, or to the end when it has none: one pass, never a second try from inside it.
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*(?:"|\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def same_origin(origin: str, host: str | None) -> bool:
    """The page's own origin: its authority is the Host it sent (already allowed by the Host check)."""
    return host is not None and origin in (f"http://{host}", f"https://{host}")


def forbidden_origin(origin: str) -> ProtocolError:
    return ProtocolError(
        403,
        "forbidden_origin",
        f"origin {json.dumps(origin)} is not allowed here"
        " (a page is, from a loopback origin or one given with --allow-origin)",
    )


def _is_json_type(header: str) -> bool:
    kind = header.split(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def check_content_type(header: str | None, has_body: bool) -> None:
    """415 for a body that does not say it is JSON (an empty body needs no type)."""
    if header is not None and not _is_json_type(header):
        what = f"Content-Type {json.dumps(header[:100])}"
    elif header is None and has_body:
        what = "a body without a Content-Type"
    else:
        return
    raise ProtocolError(415, "unsupported_media_type", f"{what}: a body must be sent as Content-Type: application/json")


def json_deeper_than(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Does the JSON text nest arrays/objects deeper than *limit*? Strings skipped, nothing decoded."""
    # A level takes two brackets: a shorter body (every protocol message) cannot be too deep.
    if len(raw) < 2 * (limit + 1):
        return False
    brackets = _STRINGS.sub(b"", raw).translate(None, _NOT_BRACKETS)
    if brackets.count(b"[") + brackets.count(b"{") <= limit:
        return False
    depth = 0
    for c in brackets:
        if c == 0x5B or c == 0x7B:
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def check_depth(raw: bytes) -> None:
    if json_deeper_than(raw):
        raise ProtocolError(
            400, "bad_request", f"body is JSON nested deeper than {MAX_JSON_DEPTH:,} levels (refused unparsed)"
        )


class WrongTokens:
    """Wrong tokens per client address as a bucket: ten at once, then one a second (as the TypeScript servers).

    An address that has spent them gets 429 without its token being read; a right token spends nothing, and a
    missing one is no guess. A page on another origin is refused before the token is read, so only a program
    that can reach the port can spend an address's tries.
    """

    def __init__(self, burst: int = 10, per_second: float = 1.0, now: Callable[[], float] = time.monotonic) -> None:
        self._burst = burst
        self._rate = per_second
        self._now = now
        self._buckets: dict[str, tuple[float, float]] = {}

    def _left(self, address: str) -> float:
        left, at = self._buckets.get(address, (float(self._burst), 0.0))
        return min(float(self._burst), left + (self._now() - at) * self._rate)

    def check(self, address: str) -> None:
        left = self._left(address)
        if left < 1:
            wait = math.ceil((1 - left) / self._rate)
            raise ProtocolError(
                429,
                "too_many_attempts",
                f"too many wrong tokens from this address: retry in {wait} s",
                {"Retry-After": str(wait)},
            )

    def failed(self, address: str) -> None:
        self._buckets[address] = (self._left(address) - 1, self._now())
        if len(self._buckets) > 1024:  # addresses whose tries have all come back are forgotten
            for a in [a for a in self._buckets if self._left(a) >= self._burst]:
                del self._buckets[a]
