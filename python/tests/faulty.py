"""Targets that fail on purpose, to prove every fault stays with its session."""

from __future__ import annotations

import asyncio

from superred.core.controller import TargetFactory
from superred.core.types.event import EventHandler, EventResponseHandler
from superred.core.types.events import ControllablePreCallEvent

from redscope_bridge.testing.probe_target import USER_MESSAGE, ProbeTarget


class Faulty(ProbeTarget):
    """mode=run: raises in run; query 'injections' raises when mode=query; teardown raises when mode=teardown."""

    def set_config(self, name: str, value: str) -> None:
        self.fault = value

    def query(self, name: str, **params: str) -> str:
        if getattr(self, "fault", "") == "query":
            raise KeyError("no such row")
        return super().query(name, **params)

    async def run(self, emit: EventHandler, send_event: EventResponseHandler) -> None:
        if getattr(self, "fault", "") == "run":
            raise ZeroDivisionError("division by zero in the target")
        if getattr(self, "fault", "") == "hang":
            await send_event(ControllablePreCallEvent(controllable=USER_MESSAGE, request="waiting"))
            await asyncio.sleep(3600)
        await super().run(emit, send_event)

    async def teardown(self) -> None:
        if getattr(self, "fault", "") == "teardown":
            raise OSError("the sandbox would not stop")


def broken_factory() -> TargetFactory:
    def create() -> Faulty:
        raise RuntimeError("no GPU for you")

    return TargetFactory(create=create, concurrency=2)


def not_a_target() -> int:
    return 42
