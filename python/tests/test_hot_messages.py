"""The hand-written checks of hot_messages.py are never looser than the generated JSON Schema: a message they pass,
the schema passes; each valid message of every kind passes both; and thousands of broken variants (a field
removed, or given another type) are either refused by the check or valid by the schema too."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from redscope_bridge.hot_messages import HOT
from redscope_bridge.schema import _validator

ID = "6b0f0c1e-2b7a-4c55-9a3e-1f4b7a2f8c11"
ID2 = "0a0f0c1e-2b7a-4c55-9a3e-1f4b7a2f8c22"
TS = "2026-01-02T03:04:05.123456"
CONTROLLABLE = {"name": "user_message", "security_domain": "user", "description": "d", "value_type": "text"}
SCORE = {"name": "primary", "value": 0.5, "security_domain": None}
EVALUATION = {
    "success": False,
    "primary_score": SCORE,
    "sub_scores": {"s": {**SCORE, "security_domain": "user"}},
    "rationale": "r",
}

BODY = {
    "security_domain": [{"name": "tools", "parent": None}, {"name": "inbox", "parent": "tools", "description": ""}],
    "event": {
        "type": "ControllablePostCallEvent",
        "event_id": ID,
        "timestamp": TS,
        "security_domain": "user",
        "controllable": CONTROLLABLE,
        "request": "q",
        "answer": "a",
    },
    "trajectory": [
        {
            "type": "ObservableEvent",
            "event_id": ID2,
            "timestamp": "2026-01-02T03:04:05",
            "security_domain": "user",
            "observable": {"name": "echo", "security_domain": "user", "description": "", "observable_type": "text"},
            "content": {"any": ["json"]},
        },
        {
            "type": "ControllablePreCallEvent",
            "event_id": ID,
            "timestamp": TS,
            "security_domain": "user",
            "controllable": CONTROLLABLE,
            "request": "q",
        },
        {"type": "ControllableInjection", "event_id": ID, "value": "v"},
        {"type": "ControllableNoInjection", "event_id": ID, "declined_by": "scope"},
        {"type": "RunEndEvent", "event_id": ID2, "timestamp": TS, "security_domain": "user", "evaluation": EVALUATION},
    ],
}
ANSWERS = [
    {
        "response": {"type": "ControllableInjection", "value": "x"},
        "usage": {"calls": 2, "cost": 0.0013},
        "llm_calls": [{"reply": "r", "prompt_tokens": 10, "completion_tokens": 5}, {"reply": None}],
    },
    {"response": {"type": "RunEndResponse", "done": True}, "usage": {"calls": 0, "cost": 0}},
    {"response": {"type": "EventResponse"}, "usage": {"calls": 0, "cost": 0.0}, "llm_calls": []},
    {"response": {"type": "ControllableNoInjection"}, "usage": {"calls": 1, "cost": 1}},
]
WRONG: list[Any] = [None, 1, -1, 1.5, True, "", "x", [], {}, ID.upper(), TS + "\n"]


def schema_ok(message: str, data: object) -> bool:
    return next(iter(_validator(message).iter_errors(data)), None) is None


def variants(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every way to break one field: removed, or replaced by each WRONG value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield (*path, k), ...
            for w in WRONG:
                yield (*path, k), w
            yield from variants(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            for w in WRONG:
                yield (*path, i), w
            yield from variants(v, (*path, i))


def broken(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(root)
    node = out
    for p in path[:-1]:
        node = node[p]
    if value is ...:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


def cases() -> Iterator[tuple[str, Any]]:
    yield "EventBody", BODY
    for event in (
        BODY["trajectory"][1:2] + BODY["trajectory"][4:] + [{"type": "RunStartEvent", "event_id": ID, "timestamp": TS}]
    ):
        yield "EventBody", {"event": event}
    for answer in ANSWERS:
        yield "EventAnswer", answer


@pytest.mark.parametrize(("message", "valid"), list(cases()))
def test_the_hand_written_checks_are_never_looser_than_the_schema(message: str, valid: Any) -> None:
    fast = HOT[message]
    assert schema_ok(message, valid)
    assert fast(valid), "a plainly valid message takes the fast path"
    looser = []
    refused = 0
    for path, value in variants(valid):
        m = broken(valid, path, value)
        if fast(m):
            if not schema_ok(message, m):
                looser.append((path, value))
        else:
            refused += 1
    assert looser == []
    assert refused > 0
