"""Optimizer-over-HTTP JSON <-> the superred objects an optimizer sees.

One :class:`SessionObjects` per session: the forest's tags are built once (superred compares tags by identity
and controllables by value, tag chain included), and every descriptor that comes back again is the same
object, as a target's own surfaces are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from superred.core.types.controllable import Controllable
from superred.core.types.evaluation import EvaluationResult, Score
from superred.core.types.event import Event, EventResponse
from superred.core.types.events import (
    ControllableInjection,
    ControllableNoInjection,
    ControllablePostCallEvent,
    ControllablePreCallEvent,
    ObservableEvent,
    RunEndEvent,
    RunEndResponse,
)
from superred.core.types.observable import Observable, ObservableValue
from superred.core.types.security_domain import SecurityDomainTag

from redscope_bridge.codec import response_from_wire
from redscope_bridge.errors import ProtocolError
from redscope_bridge.wire import (
    AnswerResponse,
    ControllableItem,
    ControllableWire,
    EvaluationWire,
    ManifestTag,
    ObservableWire,
    OfferedObservable,
    RunEndItem,
    ScoreWire,
    TrajectoryItemWire,
)


def _bad(message: str) -> ProtocolError:
    return ProtocolError(400, "bad_request", message)


def timestamp_of(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise _bad(f"timestamp {text!r} is not an ISO time") from exc


class SessionObjects:
    """The forest's tags and every surface a session names, each built once."""

    def __init__(self, forest: list[ManifestTag]) -> None:
        self.tags: dict[str, SecurityDomainTag] = {}
        self._controllables: dict[tuple[str, str, str, str], Controllable] = {}
        self._observables: dict[tuple[str, str, str, str], Observable] = {}
        self.add_tags(forest)

    def add_tags(self, tags: list[ManifestTag]) -> None:
        """Builds tags first named now, ancestors first; a name already built must keep its parent."""
        for t in tags:
            name, parent = t["name"], t.get("parent") or None
            known = self.tags.get(name)
            if known is not None:
                had = known.parent.name if known.parent is not None else None
                if had != parent:
                    raise _bad(f"security_domain: tag '{name}' was given parent {had!r} before, now {parent!r}")
                continue
            if parent is not None and parent not in self.tags:
                raise _bad(f"security_domain: the parent '{parent}' of '{name}' must come before it (or earlier)")
            self.tags[name] = SecurityDomainTag(name, self.tags[parent] if parent is not None else None)

    def tag(self, name: str) -> SecurityDomainTag:
        tag = self.tags.get(name)
        if tag is None:
            raise _bad(f"tag '{name}' is not in the session's security_domain")
        return tag

    def controllable(self, c: ControllableWire) -> Controllable:
        key = (c["name"], c["security_domain"], c.get("description", ""), c.get("value_type", "text"))
        found = self._controllables.get(key)
        if found is None:
            found = Controllable(key[0], self.tag(key[1]), key[2], key[3])
            self._controllables[key] = found
        return found

    def observable(self, o: ObservableWire | OfferedObservable) -> Observable:
        key = (o["name"], o["security_domain"], o.get("description", ""), o.get("observable_type", "text"))
        found = self._observables.get(key)
        if found is None:
            found = Observable(key[0], self.tag(key[1]), key[2], key[3])
            self._observables[key] = found
        return found

    def offered(self, observables: list[OfferedObservable]) -> list[ObservableValue]:
        return [ObservableValue(self.observable(o), o.get("content")) for o in observables]

    # -- items ---------------------------------------------------------------------------------------

    def score(self, s: ScoreWire) -> Score:
        domain = s.get("security_domain")
        return Score(
            value=float(s["value"]), security_domain=self.tag(domain) if domain else None, name=s.get("name", "primary")
        )

    def evaluation(self, e: EvaluationWire | None) -> EvaluationResult | None:
        if e is None:
            return None
        return EvaluationResult(
            success=e["success"],
            primary_score=self.score(e["primary_score"]),
            sub_scores={k: self.score(v) for k, v in (e.get("sub_scores") or {}).items()},
            rationale=e.get("rationale", ""),
        )

    def controllable_event(self, item: ControllableItem) -> ControllablePreCallEvent | ControllablePostCallEvent:
        common: dict[str, Any] = {
            "controllable": self.controllable(item["controllable"]),
            "request": item["request"],
            "event_id": item["event_id"],
            "timestamp": timestamp_of(item["timestamp"]),
            "security_domain": self.tag(item["security_domain"]),
        }
        if item["type"] == "ControllablePreCallEvent":
            return ControllablePreCallEvent(**common)
        if "answer" not in item:
            raise _bad("a ControllablePostCallEvent carries its answer")
        return ControllablePostCallEvent(answer=item["answer"], **common)

    def run_end(self, item: RunEndItem) -> RunEndEvent:
        return RunEndEvent(
            evaluation=self.evaluation(item["evaluation"]),
            event_id=item["event_id"],
            timestamp=timestamp_of(item["timestamp"]),
            security_domain=self.tag(item["security_domain"]),
        )

    def item(self, w: TrajectoryItemWire, run_events: dict[str, Event]) -> Event | EventResponse:
        """One item of a run's view. A response names its event, which must be earlier in the same run."""
        if w["type"] == "ObservableEvent":
            return ObservableEvent(
                observable=self.observable(w["observable"]),
                content=w.get("content"),
                event_id=w["event_id"],
                timestamp=timestamp_of(w["timestamp"]),
                security_domain=self.tag(w["security_domain"]),
            )
        if w["type"] in ("ControllablePreCallEvent", "ControllablePostCallEvent"):
            return self.controllable_event(w)
        if w["type"] == "RunEndEvent":
            return self.run_end(w)
        event = run_events.get(w["event_id"])
        if not isinstance(event, ControllablePreCallEvent | ControllablePostCallEvent):
            raise _bad(f"a {w['type']} names event {w['event_id']}, which is no earlier pre- or post-call of this run")
        return response_from_wire(event, dict(w))


def answer_of(response: EventResponse) -> AnswerResponse:
    """The optimizer's response as the answer's ``response`` (the event it answers is the request's)."""
    if isinstance(response, ControllableInjection):
        return {"type": "ControllableInjection", "value": response.value}
    if isinstance(response, ControllableNoInjection):
        return {"type": "ControllableNoInjection"}
    if isinstance(response, RunEndResponse):
        return {"type": "RunEndResponse", "done": bool(response.done)}
    return {"type": "EventResponse"}
