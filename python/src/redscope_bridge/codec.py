"""superred values <-> protocol JSON. Tags travel by name; manifest order is the target's own order."""

from __future__ import annotations

import dataclasses
import inspect
import json
from datetime import datetime
from typing import Any

from superred.core.interfaces.target import Target
from superred.core.types.controllable import Controllable
from superred.core.types.event import Event, EventResponse
from superred.core.types.events import (
    ControllableInjection,
    ControllableNoInjection,
    ControllablePostCallEvent,
    ControllablePreCallEvent,
    ObservableEvent,
)
from superred.core.types.observable import Observable
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag

PROTOCOL_VERSION = "superred-target-http/1"

ControllableEvent = ControllablePreCallEvent | ControllablePostCallEvent


def domain_tags(domain: SecurityDomain) -> list[SecurityDomainTag]:
    """Every tag of a SecurityDomain in its input order.

    superred keeps them in a private name->tag dict and exposes only ``roots``;
    the order matters (it fixes the order of distinct combinations), so read it.
    """
    tags = getattr(domain, "_tags", None)
    if not isinstance(tags, dict):
        raise TypeError("this superred SecurityDomain does not expose its tags (_tags); the bridge cannot list them")
    return list(tags.values())


def jsonable(value: object) -> Any:
    """Content as JSON, converted as superred's persistence does (datetimes as ISO, the rest as repr)."""

    def fallback(obj: object) -> object:
        return obj.isoformat() if isinstance(obj, datetime) else repr(obj)

    return json.loads(json.dumps(value, default=fallback))


def _tag_name(tag: SecurityDomainTag | None) -> str | None:
    return tag.name if tag is not None else None


def first_paragraph(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.split("\n\n", 1)[0].replace("\n", " ").strip()


def manifest_of(target: Target, *, name: str, description: str, concurrency: int) -> dict[str, Any]:
    """What ``GET /manifest`` answers: the live target's surfaces, in its own order."""
    return {
        "protocol": PROTOCOL_VERSION,
        "name": name,
        "description": description,
        "security_domain": [
            {"name": t.name, "parent": _tag_name(t.parent), "description": ""}
            for t in domain_tags(target.security_domain)
        ],
        "controllables": [controllable_json(c) for c in target.get_controllables()],
        "observables": observables_json(target),
        "config_specs": [
            {"name": c.name, "security_domain": _tag_name(c.security_domain), "description": c.description}
            for c in target.config_specs
        ],
        "query_specs": [
            {
                "name": q.name,
                "description": q.description,
                "params": [{"name": p.name, "description": p.description} for p in q.params],
            }
            for q in target.query_specs
        ],
        "concurrency": concurrency,
    }


def observables_json(target: Target) -> list[dict[str, Any]]:
    """The target's static observables as they are now, with their content."""
    return [{**observable_json(o.observable), "content": jsonable(o.content)} for o in target.get_observables()]


def controllable_json(c: Controllable) -> dict[str, Any]:
    return {
        "name": c.name,
        "security_domain": _tag_name(c.security_domain),
        "description": c.description,
        "value_type": c.value_type,
    }


def observable_json(o: Observable) -> dict[str, Any]:
    return {
        "name": o.name,
        "security_domain": _tag_name(o.security_domain),
        "description": o.description,
        "observable_type": o.observable_type,
    }


def wire_event(event: Event) -> dict[str, Any]:
    """An emitted item as a RunStep event. Only observations travel; pauses go through ``send_event``."""
    if not isinstance(event, ObservableEvent):
        raise TypeError(f"only ObservableEvent can be emitted over the protocol (got {type(event).__name__})")
    if event.security_domain is None:
        # What superred's Trajectory.emit raises in process: the target sees the same failure here.
        raise ValueError(f"Cannot persist {type(event).__name__} without a security_domain")
    out: dict[str, Any] = {
        "type": "ObservableEvent",
        "observable": observable_json(event.observable),
        "content": jsonable(event.content),
        "event_id": event.event_id,
        "timestamp": event.timestamp.isoformat(),
    }
    if event.security_domain is not event.observable.security_domain:
        out["security_domain"] = event.security_domain.name
    return out


def wire_pause(call_id: str, event: Event) -> dict[str, Any]:
    """A controllable event as the RunStep's pause, with the controllable as the target built it."""
    if not isinstance(event, ControllablePreCallEvent | ControllablePostCallEvent):
        raise TypeError(
            f"only ControllablePreCallEvent and ControllablePostCallEvent can pause over the protocol "
            f"(got {type(event).__name__})"
        )
    c = event.controllable
    pause: dict[str, Any] = {
        "call_id": call_id,
        "type": type(event).__name__,
        "controllable": c.name,
        "request": event.request,
        "event_id": event.event_id,
        "timestamp": event.timestamp.isoformat(),
    }
    if c.security_domain is not None:
        pause["descriptor"] = {
            "security_domain": c.security_domain.name,
            "description": c.description,
            "value_type": c.value_type,
        }
    if isinstance(event, ControllablePostCallEvent):
        pause["answer"] = event.answer
    return pause


def _has_field(cls: type, name: str) -> bool:
    return any(f.name == name for f in dataclasses.fields(cls))


def response_from_wire(event: ControllableEvent, response: dict[str, Any]) -> EventResponse:
    """The client's answer to a pause, as superred's response object for that event."""
    if response["type"] == "ControllableInjection":
        return ControllableInjection(event=event, controllable=event.controllable, value=response["value"])
    # superred 0.3.0's ControllableNoInjection has no declined_by; later versions do.
    if _has_field(ControllableNoInjection, "declined_by"):
        extra = {"declined_by": response.get("declined_by", "optimizer")}
        return ControllableNoInjection(event=event, controllable=event.controllable, **extra)
    return ControllableNoInjection(event=event, controllable=event.controllable)


def response_to_wire(response: EventResponse) -> dict[str, Any]:
    """superred's answer to a pause as the protocol's Response (RemoteTarget's side)."""
    if isinstance(response, ControllableInjection):
        return {"type": "ControllableInjection", "value": response.value}
    if isinstance(response, ControllableNoInjection):
        out: dict[str, Any] = {"type": "ControllableNoInjection"}
        declined = getattr(response, "declined_by", None)
        if declined in ("scope", "optimizer"):
            out["declined_by"] = declined
        return out
    raise TypeError(f"a pause needs ControllableInjection or ControllableNoInjection, got {type(response).__name__}")
