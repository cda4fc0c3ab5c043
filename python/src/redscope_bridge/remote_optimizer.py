"""RemoteOptimizer: a superred Optimizer whose work happens on an Optimizer-over-HTTP server.

superred's own Controller can then attack with an optimizer served elsewhere (another machine with the model's
key, a GPU box), and the protocol's cost can be measured against the same optimizer in process
(``redscope_bridge.testing.optimizer_bench``). One instance is one session, as one superred task has one
optimizer: ``initialize`` opens it, each event is one request carrying what the run's view gained since the last
one, ``teardown`` closes it. The session's LLM usage comes back with every answer and is copied into the client
the Controller gave ``initialize``, so its per-run accounting stays true.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Literal

import aiohttp
from superred.core.interfaces.optimizer import Optimizer
from superred.core.llm import LLMClient
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
    RunStartEvent,
)
from superred.core.types.goal import Goal
from superred.core.types.llm import BudgetExhaustedError, LLMUsage
from superred.core.types.observable import Observable, ObservableValue
from superred.core.types.security_domain import SecurityDomainTag

from redscope_bridge.client import DEFAULT_TIMEOUT_S, ProtocolCallError
from redscope_bridge.codec import jsonable
from redscope_bridge.schema import problems
from redscope_bridge.wire import (
    ControllableItem,
    ControllableWire,
    EvaluationWire,
    ManifestTag,
    ObservableWire,
    OptimizerEventWire,
    ScoreWire,
    TrajectoryItemWire,
    UsageWire,
)


class RemoteOptimizerError(ProtocolCallError):
    """An Optimizer-over-HTTP call failed."""


class _Tags:
    """The tags a session has named, and those named since the last message (ancestors first)."""

    def __init__(self) -> None:
        self._sent: set[str] = set()
        self._pending: list[ManifestTag] = []

    def name(self, tag: SecurityDomainTag | None) -> str:
        if tag is None:
            raise ValueError("an item without a security domain cannot be sent to an optimizer")
        chain: list[SecurityDomainTag] = []
        t: SecurityDomainTag | None = tag
        while t is not None and t.name not in self._sent:
            chain.append(t)
            t = t.parent
        for x in reversed(chain):
            self._sent.add(x.name)
            self._pending.append({"name": x.name, "parent": x.parent.name if x.parent is not None else None})
        return tag.name

    def take(self) -> list[ManifestTag]:
        out, self._pending = self._pending, []
        return out


class RemoteOptimizer(Optimizer):
    """A superred Optimizer served at *url* under *name* (``redscope-bridge serve --optimizer ...``).

    Args:
        url: the server's base URL (``GET {url}/optimizers`` lists what it serves).
        name: the served optimizer's name.
        kwargs: its keyword arguments for this session (the server's own lie under them).
        token: bearer token, when the server requires one (sent to this URL only, never logged).
    """

    def __init__(
        self,
        url: str,
        name: str,
        kwargs: dict[str, Any] | None = None,
        *,
        token: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S * 5,
    ) -> None:
        super().__init__()
        self._url = url.rstrip("/")
        self._name = name
        self._kwargs = dict(kwargs or {})
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._http: aiohttp.ClientSession | None = None
        self._path: str | None = None
        self._tags = _Tags()
        self._mirror: LLMClient | None = None

    # -- HTTP ---------------------------------------------------------------------------------------------

    async def _call(self, method: str, path: str, body: object | None, message: str) -> Any:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=self._timeout, headers=self._headers)
        endpoint = f"{method} {self._url}{path}"
        try:
            async with self._http.request(method, self._url + path, json=body) as resp:
                text = await resp.text()
                status = resp.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise RemoteOptimizerError(endpoint, f"no answer ({type(exc).__name__}: {exc})") from exc
        if status >= 400:
            code, detail = None, text[:300]
            with contextlib.suppress(ValueError, KeyError, TypeError):
                err = json.loads(text)["error"]
                code, detail = str(err["code"]), str(err.get("message", ""))
            if code == "budget_exhausted":
                raise BudgetExhaustedError(detail, usage=self._usage())
            raise RemoteOptimizerError(endpoint, f"answered {status} {code or ''}: {detail}", status, code)
        data = json.loads(text)
        bad = problems(message, data)
        if bad:
            raise RemoteOptimizerError(endpoint, f"answered {status} with a body that breaks the protocol: {bad[0]}")
        return data

    def _usage(self) -> LLMUsage:
        return self._mirror.usage if self._mirror is not None else LLMUsage(calls=0, cost=0.0)

    def _took(self, usage: UsageWire) -> None:
        """The server's cumulative usage, copied into the Controller's client (superred reads it after each run)."""
        client = self._mirror
        if client is None:
            return
        with client._lock:
            client._calls = max(client._calls, int(usage["calls"]))
            client._cost = max(client._cost, float(usage["cost"]))

    # -- superred values as the protocol's JSON -----------------------------------------------------------

    def _controllable(self, c: Controllable) -> ControllableWire:
        return {
            "name": c.name,
            "security_domain": self._tags.name(c.security_domain),
            "description": c.description,
            "value_type": c.value_type,
        }

    def _observable(self, o: Observable) -> ObservableWire:
        return {
            "name": o.name,
            "security_domain": self._tags.name(o.security_domain),
            "description": o.description,
            "observable_type": o.observable_type,
        }

    def _score(self, s: Score) -> ScoreWire:
        tag = self._tags.name(s.security_domain) if s.security_domain is not None else None
        return {"name": s.name, "value": s.value, "security_domain": tag}

    def _evaluation(self, e: EvaluationResult | None) -> EvaluationWire | None:
        if e is None:
            return None
        subs = {k: self._score(v) for k, v in e.sub_scores.items()}
        return {
            "success": e.success,
            "primary_score": self._score(e.primary_score),
            "sub_scores": subs,
            "rationale": e.rationale,
        }

    def _event(self, e: Event) -> OptimizerEventWire:
        eid, ts = e.event_id, e.timestamp.isoformat()
        if isinstance(e, RunStartEvent):
            return {"type": "RunStartEvent", "event_id": eid, "timestamp": ts}
        if isinstance(e, RunEndEvent):
            domain = self._tags.name(e.security_domain)
            evaluation = self._evaluation(e.evaluation)
            return {
                "type": "RunEndEvent",
                "event_id": eid,
                "timestamp": ts,
                "security_domain": domain,
                "evaluation": evaluation,
            }
        assert isinstance(e, ControllablePreCallEvent | ControllablePostCallEvent)
        item: ControllableItem = {
            "type": "ControllablePreCallEvent",
            "event_id": eid,
            "timestamp": ts,
            "security_domain": self._tags.name(e.security_domain),
            "controllable": self._controllable(e.controllable),
            "request": e.request,
        }
        if isinstance(e, ControllablePostCallEvent):
            item["type"] = "ControllablePostCallEvent"
            item["answer"] = e.answer
        return item

    def _item(self, i: Any) -> TrajectoryItemWire:
        if isinstance(i, ObservableEvent):
            return {
                "type": "ObservableEvent",
                "event_id": i.event_id,
                "timestamp": i.timestamp.isoformat(),
                "security_domain": self._tags.name(i.security_domain),
                "observable": self._observable(i.observable),
                "content": jsonable(i.content),
            }
        if isinstance(i, ControllableInjection):
            return {"type": "ControllableInjection", "event_id": i.event.event_id, "value": i.value}
        if isinstance(i, ControllableNoInjection):
            # superred 0.3.0's ControllableNoInjection has no declined_by; later versions do.
            declined: Literal["scope", "optimizer"] = (
                "scope" if getattr(i, "declined_by", "") == "scope" else "optimizer"
            )
            return {"type": "ControllableNoInjection", "event_id": i.event.event_id, "declined_by": declined}
        event = self._event(i)
        assert event["type"] != "RunStartEvent"
        return event

    # -- the Optimizer ------------------------------------------------------------------------------------

    async def initialize(
        self,
        goal: Goal,
        controllables: list[Controllable],
        observables: list[ObservableValue],
        llm_client: LLMClient,
    ) -> None:
        await super().initialize(goal, controllables, observables, llm_client)
        self._mirror = llm_client
        body: dict[str, Any] = {
            "optimizer": self._name,
            "kwargs": self._kwargs,
            "goal": {"description": goal.description},
            "controllables": [self._controllable(c) for c in controllables],
            "observables": [{**self._observable(o.observable), "content": jsonable(o.content)} for o in observables],
            "task_cost_cap_usd": llm_client._cost_cap_usd,
        }
        body["security_domain"] = self._tags.take()
        opened = await self._call("POST", "/optimizer-sessions", body, "SessionOpened")
        self._path = f"/optimizer-sessions/{opened['session_id']}"
        self._took(opened["usage"])

    async def on_event(self, event: Event) -> EventResponse:
        assert self._path is not None, "initialize() first"
        items: list[Any] = []
        if not isinstance(event, RunStartEvent):
            view = self.current_trajectory
            assert view is not None
            # superred records a pre/post-call or a RunEnd on the view before it sends it: the server does that too.
            items = view.drain()
            if items and items[-1] is event:
                items = items[:-1]
        trajectory = [self._item(i) for i in items]
        body = {"event": self._event(event), "trajectory": trajectory, "security_domain": self._tags.take()}
        answer = await self._call("POST", f"{self._path}/events", body, "EventAnswer")
        self._took(answer["usage"])
        r = answer["response"]
        if r["type"] == "RunEndResponse":
            return RunEndResponse(event=event, done=bool(r["done"]))
        if r["type"] == "ControllableInjection":
            assert isinstance(event, ControllablePreCallEvent | ControllablePostCallEvent)
            return ControllableInjection(event=event, controllable=event.controllable, value=r["value"])
        if r["type"] == "ControllableNoInjection":
            assert isinstance(event, ControllablePreCallEvent | ControllablePostCallEvent)
            return ControllableNoInjection(event=event, controllable=event.controllable)
        return EventResponse(event=event)

    async def teardown(self) -> None:
        """Closes the session; never raises (a dead server must not hide the task's own error)."""
        path, self._path = self._path, None
        with contextlib.suppress(Exception):
            if path is not None:
                closed = await self._call("DELETE", path, None, "SessionClosed")
                self._took(closed["usage"])
        if self._http is not None:
            await self._http.close()
            self._http = None
