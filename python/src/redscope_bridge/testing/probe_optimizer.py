"""A deterministic superred Optimizer for the Optimizer-over-HTTP conformance suite and the fault tests.

It says what reached it: each pre-call is answered with an injection whose value is a JSON account of the
run's view as the optimizer sees it (every item, in order, with its tag and whether a response's event is the
very object seen earlier), of what it was offered, and of its run number. It can also fail on purpose
(``fail_on``: ``"initialize"``, an event type, or ``"after_close"`` for a run that raises once its channel
closes), only for goals that contain ``fail_goal``; think for ``sleep_s`` on every event of goals that contain
``sleep_goal`` (a slow LLM); call its
LLM at each RunStart (``llm``); answer a post-call with the wrong response type (``wrong_post``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from superred.core.channel import EventChannel
from superred.core.interfaces.optimizer import Optimizer
from superred.core.llm import LLMClient
from superred.core.types.controllable import Controllable
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
from superred.core.types.observable import ObservableValue
from superred.core.types.security_domain import SecurityDomainTag


def _chain(tag: SecurityDomainTag | None) -> str | None:
    names = []
    while tag is not None:
        names.append(tag.name)
        tag = tag.parent
    return "/".join(reversed(names)) if names else None


class ProbeOptimizer(Optimizer):
    """Injects its own account of what it saw; done after ``runs`` runs."""

    def __init__(
        self,
        *,
        runs: int = 1,
        fail_on: str | None = None,
        fail_goal: str = "",
        sleep_s: float = 0.0,
        sleep_goal: str = "",
        llm: bool = False,
        wrong_post: bool = False,
    ) -> None:
        super().__init__()
        if runs < 1:
            raise ValueError("runs must be at least 1")
        self.runs = runs
        self.fail_on = fail_on
        self.fail_goal = fail_goal
        self.sleep_s = sleep_s
        self.sleep_goal = sleep_goal
        self.use_llm = llm
        self.wrong_post = wrong_post
        self.run_number = 0
        self.offered: dict[str, Any] = {}
        self.fails = False
        self.sleeps = False

    async def initialize(
        self,
        goal: Goal,
        controllables: list[Controllable],
        observables: list[ObservableValue],
        llm_client: LLMClient,
    ) -> None:
        await super().initialize(goal, controllables, observables, llm_client)
        self.fails = self.fail_goal in goal.description
        self.sleeps = self.sleep_goal in goal.description
        self.offered = {
            "goal": goal.description,
            "controllables": [[c.name, _chain(c.security_domain), c.description, c.value_type] for c in controllables],
            "observables": [[o.observable.name, _chain(o.observable.security_domain), o.content] for o in observables],
        }
        self._maybe_fail("initialize")

    def _maybe_fail(self, where: str) -> None:
        if self.fails and self.fail_on == where:
            raise RuntimeError(f"the probe optimizer failed on purpose in {where}")

    async def run(self, channel: EventChannel) -> None:
        await super().run(channel)
        self._maybe_fail("after_close")

    def _view(self) -> list[list[Any]]:
        assert self.current_trajectory is not None
        items = self.current_trajectory.snapshot()
        seen: list[list[Any]] = []
        for item in items:
            if isinstance(item, ObservableEvent):
                seen.append([type(item).__name__, item.observable.name, _chain(item.security_domain), item.content])
            elif isinstance(item, ControllablePreCallEvent | ControllablePostCallEvent):
                seen.append([type(item).__name__, item.controllable.name, _chain(item.security_domain), item.request])
            elif isinstance(item, RunEndEvent):
                ok = None if item.evaluation is None else item.evaluation.success
                seen.append([type(item).__name__, None, _chain(item.security_domain), ok])
            elif isinstance(item, ControllableInjection | ControllableNoInjection):
                # A response: its event must be the very object seen earlier on this view.
                same = any(e is item.event for e in items)
                value = getattr(item, "value", None)
                seen.append([type(item).__name__, item.controllable.name, same, value])
        return seen

    async def on_event(self, event: Event) -> EventResponse:
        if self.sleep_s and self.sleeps:
            await asyncio.sleep(self.sleep_s)
        self._maybe_fail(type(event).__name__)
        if isinstance(event, RunStartEvent):
            self.run_number += 1
            if self.use_llm:
                await self.llm.complete([{"role": "user", "content": f"probe run {self.run_number}"}])
            return EventResponse(event=event)
        if isinstance(event, ControllablePreCallEvent):
            if event.request == "decline":
                return ControllableNoInjection(event=event, controllable=event.controllable)
            account = {"run": self.run_number, "view": self._view(), "offered": self.offered}
            return ControllableInjection(event=event, controllable=event.controllable, value=json.dumps(account))
        if isinstance(event, ControllablePostCallEvent):
            if self.wrong_post:
                return EventResponse(event=event)
            return ControllableNoInjection(event=event, controllable=event.controllable)
        assert isinstance(event, RunEndEvent)
        return RunEndResponse(event=event, done=self.run_number >= self.runs)
