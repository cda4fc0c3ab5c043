"""Targets that fail on purpose, to prove every fault stays with its session."""

from __future__ import annotations

import asyncio
import os

from superred.core.controller import TargetFactory
from superred.core.types.event import EventHandler, EventResponseHandler
from superred.core.types.events import ControllablePreCallEvent, ObservableEvent

from redscope_bridge.testing.probe_target import ECHO, USER_MESSAGE, ProbeTarget


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


LEAKY_ENV = "LEAKY_SERVICE_TOKEN"


class Leaky(ProbeTarget):
    """Careless with its keys: observes the key of its environment; mode=run fails quoting the api_key it was given,
    as an OpenAI-compatible endpoint's 401 does ("Incorrect API key provided: sk-...")."""

    def __init__(self, api_key: str, model: str = "gpt-4o-mini") -> None:
        super().__init__()
        self.api_key = api_key
        self.model = model

    def set_config(self, name: str, value: str) -> None:
        self.fault = value

    async def run(self, emit: EventHandler, send_event: EventResponseHandler) -> None:
        emit(ObservableEvent(observable=ECHO, content=f"{self.model} with {os.environ.get(LEAKY_ENV, '')}"))
        if getattr(self, "fault", "") == "run":
            raise PermissionError(f"Error code: 401 - Incorrect API key provided: {self.api_key}. Check it.")
        await super().run(emit, send_event)


def login_factory(api_key: str, fail: bool = False) -> TargetFactory:
    """A factory that logs in at start-up, and whose failed login quotes the key."""
    if fail:
        raise PermissionError(f"Incorrect API key provided: {api_key}")
    return TargetFactory(create=lambda: Leaky(api_key), concurrency=1)
