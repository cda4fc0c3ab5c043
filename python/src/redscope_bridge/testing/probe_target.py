"""A Python twin of redscope's TypeScript probe target (src/testing/probeTarget.ts).

The conformance suite (src/protocol/conformance.test.ts) runs the same checks against the
TypeScript server serving that probe and against ``redscope-bridge serve`` serving this one:
same forest, surfaces, config, queries, pauses and failures.
"""

from __future__ import annotations

import asyncio
import json

from superred.core.interfaces.target import Target
from superred.core.types.controllable import Controllable
from superred.core.types.event import EventHandler, EventResponseHandler
from superred.core.types.events import (
    ControllableInjection,
    ControllablePostCallEvent,
    ControllablePreCallEvent,
    ObservableEvent,
)
from superred.core.types.observable import Observable, ObservableValue
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag
from superred.core.types.state import ConfigSpec, QueryParam, QuerySpec

SYSTEM = SecurityDomainTag("system")
SYSTEM_PROMPT = SecurityDomainTag("system_prompt", SYSTEM)
USER = SecurityDomainTag("user")
TOOLS = SecurityDomainTag("tools")
INBOX = SecurityDomainTag("inbox", TOOLS)
DOMAIN = SecurityDomain([SYSTEM, SYSTEM_PROMPT, USER, TOOLS, INBOX])

USER_MESSAGE = Controllable("user_message", USER, "the user's message")
INBOX_EMAIL = Controllable("inbox_email", INBOX, "an email in the inbox")
IDENTITY = Observable("model_identity", SYSTEM, "which model")
ECHO = Observable("echo", USER)
TRACE = Observable("trace", SYSTEM)


class ProbeTarget(Target):
    """A small target for protocol tests: a pre-call, a post-call, runtime observables, a failing mode."""

    def __init__(self) -> None:
        self._mode = "ok"
        self._injected: list[str] = []

    @property
    def config_specs(self) -> list[ConfigSpec]:
        return [ConfigSpec("mode", SYSTEM, "ok | fail | slow")]

    def set_config(self, name: str, value: str) -> None:
        if value not in ("ok", "fail", "slow"):
            raise ValueError(f"mode must be ok, fail or slow (got '{value}')")
        if name == "mode":
            self._mode = value

    @property
    def query_specs(self) -> list[QuerySpec]:
        return [
            QuerySpec("injections", "values injected in the last run"),
            QuerySpec("lookup", "a value by key", [QueryParam("key", "which value")]),
        ]

    def query(self, name: str, **params: str) -> str:
        if name == "lookup":
            return f"value of {params['key']}"
        return json.dumps(self._injected, separators=(",", ":"))

    @property
    def security_domain(self) -> SecurityDomain:
        return DOMAIN

    def get_controllables(self) -> list[Controllable]:
        return [USER_MESSAGE, INBOX_EMAIL]

    def get_observables(self) -> list[ObservableValue]:
        return [ObservableValue(IDENTITY, "probe-1")]

    async def run(self, emit: EventHandler, send_event: EventResponseHandler) -> None:
        emit(ObservableEvent(observable=ECHO, content="run started"))
        first = await send_event(ControllablePreCallEvent(controllable=USER_MESSAGE, request="hello?"))
        if isinstance(first, ControllableInjection):
            self._injected.append(first.value)
        emit(
            ObservableEvent(
                observable=ECHO, content={"message": first.value if isinstance(first, ControllableInjection) else None}
            )
        )
        if self._mode == "fail":
            raise RuntimeError("the probe failed on purpose")
        if self._mode == "slow":
            await asyncio.sleep(60)
        # An event whose domain overrides its observable's: the client must keep it.
        emit(ObservableEvent(observable=TRACE, content="reading inbox", security_domain=INBOX))
        second = await send_event(
            ControllablePostCallEvent(controllable=INBOX_EMAIL, request="read_inbox()", answer="one email")
        )
        if isinstance(second, ControllableInjection):
            self._injected.append(second.value)
        emit(ObservableEvent(observable=ECHO, content="done"))

    async def reset_ephemeral_state(self) -> None:
        self._injected = []

    async def teardown(self) -> None:
        pass
