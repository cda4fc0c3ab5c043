"""Hand-written checks for the messages every optimizer event carries (``EventBody``, ``EventAnswer``).

jsonschema walks every branch of a ``oneOf`` (the protocol's unions of events and items): about 2 ms for one
event's body and 1 ms for its answer on a loaded machine, the largest share of an event that plain HTTP does not
have. Each check here accepts only the plain, valid form of its message (it is never looser than the schema), and
says nothing about anything else: the schema then decides, so a malformed message still gets jsonschema's message
with the path to the bad field. tests/test_hot_messages.py holds the two to the same answers.
"""

from __future__ import annotations

import re
from typing import Any

# Stricter than the schema's patterns (which end with $, which lets a trailing newline through): a subset.
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?")


def _name(v: object) -> bool:
    return isinstance(v, str) and v != ""


def _opt_str(d: dict[str, Any], key: str) -> bool:
    return key not in d or isinstance(d[key], str)


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _stamped(d: dict[str, Any]) -> bool:
    eid, ts = d.get("event_id"), d.get("timestamp")
    return (
        isinstance(eid, str)
        and _UUID.fullmatch(eid) is not None
        and isinstance(ts, str)
        and _TIME.fullmatch(ts) is not None
    )


def _surface(d: object, kind: str) -> bool:
    return (
        isinstance(d, dict)
        and _name(d.get("name"))
        and _name(d.get("security_domain"))
        and _opt_str(d, "description")
        and _opt_str(d, kind)
    )


def _score(s: object) -> bool:
    if not isinstance(s, dict) or not _number(s.get("value")) or not _opt_str(s, "name"):
        return False
    return "security_domain" not in s or s["security_domain"] is None or _name(s["security_domain"])


def _evaluation(e: object) -> bool:
    if e is None:
        return True
    if not isinstance(e, dict) or not isinstance(e.get("success"), bool) or not _score(e.get("primary_score")):
        return False
    subs = e.get("sub_scores", {})
    return isinstance(subs, dict) and all(_score(s) for s in subs.values()) and _opt_str(e, "rationale")


def _item(d: object, as_event: bool) -> bool:
    """One trajectory item; ``as_event``: the event to answer (a RunStart may be one; a response or observation not)."""
    if not isinstance(d, dict) or not _stamped_or_response(d):
        return False
    t = d.get("type")
    if t == "RunStartEvent":
        return as_event
    if t in ("ControllablePreCallEvent", "ControllablePostCallEvent"):
        ok = (
            _name(d.get("security_domain"))
            and _surface(d.get("controllable"), "value_type")
            and isinstance(d.get("request"), str)
        )
        return ok and (t == "ControllablePreCallEvent" or isinstance(d.get("answer"), str))
    if t == "RunEndEvent":
        return _name(d.get("security_domain")) and "evaluation" in d and _evaluation(d["evaluation"])
    if as_event:
        return False
    if t == "ObservableEvent":
        return _name(d.get("security_domain")) and _surface(d.get("observable"), "observable_type")
    if t == "ControllableInjection":
        return isinstance(d.get("value"), str)
    if t == "ControllableNoInjection":
        return d.get("declined_by", "optimizer") in ("scope", "optimizer")
    return False


def _stamped_or_response(d: dict[str, Any]) -> bool:
    if d.get("type") in ("ControllableInjection", "ControllableNoInjection"):
        eid = d.get("event_id")
        return isinstance(eid, str) and _UUID.fullmatch(eid) is not None
    return _stamped(d)


def _tags(v: object) -> bool:
    return isinstance(v, list) and all(
        isinstance(t, dict)
        and _name(t.get("name"))
        and ("parent" not in t or t["parent"] is None or isinstance(t["parent"], str))
        and _opt_str(t, "description")
        for t in v
    )


def event_body_ok(data: object) -> bool:
    """True only for a plainly valid ``EventBody``; False means: ask the schema."""
    if not isinstance(data, dict) or not _item(data.get("event"), True):
        return False
    if "security_domain" in data and not _tags(data["security_domain"]):
        return False
    items = data.get("trajectory", [])
    return isinstance(items, list) and all(_item(i, False) for i in items)


_ANSWERS = {"EventResponse", "ControllableInjection", "ControllableNoInjection", "RunEndResponse"}


def event_answer_ok(data: object) -> bool:
    """True only for a plainly valid ``EventAnswer``; False means: ask the schema."""
    if not isinstance(data, dict):
        return False
    r, usage, calls = data.get("response"), data.get("usage"), data.get("llm_calls", [])
    if not isinstance(r, dict) or not isinstance(r.get("type"), str) or r["type"] not in _ANSWERS:
        return False
    if r["type"] == "ControllableInjection" and not isinstance(r.get("value"), str):
        return False
    if r["type"] == "RunEndResponse" and not isinstance(r.get("done"), bool):
        return False
    if not isinstance(usage, dict) or not _count(usage.get("calls")):
        return False
    if not _number(usage.get("cost")) or usage["cost"] < 0:
        return False
    return isinstance(calls, list) and all(
        isinstance(c, dict)
        and "reply" in c
        and (c["reply"] is None or isinstance(c["reply"], str))
        and all(k not in c or _count(c[k]) for k in ("prompt_tokens", "completion_tokens"))
        for c in calls
    )


HOT = {"EventBody": event_body_ok, "EventAnswer": event_answer_ok}
