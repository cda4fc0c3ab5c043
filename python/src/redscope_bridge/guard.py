"""What a request must be before it may act: from an allowed page, a JSON body, nested no deeper than 1,000 levels.

The same rules as the TypeScript server (src/servers/http): a browser sends a cross-origin "simple" request
(a POST with a text/plain or form body) without asking first, so the refusal must come before any effect,
not from the missing CORS headers of the answer.
"""

from __future__ import annotations

import json
import re

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
