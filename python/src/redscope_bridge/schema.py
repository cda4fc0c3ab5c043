"""The protocols' JSON Schemas (generated from redscope's zod schemas) and validation against them.

Two documents: ``protocol.schema.json`` (Target-over-HTTP) and ``optimizer_protocol.schema.json``
(Optimizer-over-HTTP). A message is named once across both (``ErrorBody`` is the same in each).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from redscope_bridge.errors import ProtocolError
from redscope_bridge.hot_messages import HOT

MESSAGES = (
    "Manifest",
    "SessionCreated",
    "SessionObservables",
    "EmptyBody",
    "ConfigBody",
    "TaskBody",
    "QueryBody",
    "QueryAnswer",
    "RunStep",
    "ResponseBody",
    "ErrorBody",
)

OPTIMIZER_MESSAGES = (
    "OptimizerManifest",
    "OpenSessionBody",
    "SessionOpened",
    "EventBody",
    "EventAnswer",
    "SessionClosed",
    "KwargsBody",
    "KwargsAnswer",
    "ErrorBody",
)

_FILES = {"target": "protocol.schema.json", "optimizer": "optimizer_protocol.schema.json"}


@cache
def _document(which: str) -> dict[str, Any]:
    text = resources.files("redscope_bridge").joinpath(_FILES[which]).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def protocol_schema() -> dict[str, Any]:
    """The Target-over-HTTP document, as committed beside this module."""
    return _document("target")


def optimizer_protocol_schema() -> dict[str, Any]:
    """The Optimizer-over-HTTP document, as committed beside this module."""
    return _document("optimizer")


@cache
def _validator(message: str) -> Draft202012Validator:
    if message in MESSAGES:
        doc = protocol_schema()
    elif message in OPTIMIZER_MESSAGES:
        doc = optimizer_protocol_schema()
    else:
        known = ", ".join(dict.fromkeys((*MESSAGES, *OPTIMIZER_MESSAGES)))
        raise KeyError(f"no protocol message {message!r} (known: {known})")
    return Draft202012Validator({"$ref": f"#/$defs/{message}", "$defs": doc["$defs"]})


def _path(parts: Any) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(root)"


def problems(message: str, data: object) -> list[str]:
    """Every way *data* breaks the schema of *message*, each ``path: reason``; empty when valid."""
    hot = HOT.get(message)
    if hot is not None and hot(data):
        return []  # plainly valid: checked by hand, without jsonschema's walk over every oneOf branch
    errors = sorted(_validator(message).iter_errors(data), key=lambda e: list(e.absolute_path))
    return [f"{_path(e.absolute_path)}: {e.message}" for e in errors]


def require(message: str, data: object) -> None:
    """Raises 400 ``bad_request`` naming the first bad fields (a request body the server received)."""
    found = problems(message, data)
    if found:
        raise ProtocolError(400, "bad_request", f"malformed body: {'; '.join(found[:3])}")
