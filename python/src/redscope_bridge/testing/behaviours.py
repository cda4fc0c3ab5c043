"""What the fake LLM answers: a chain of behaviours, the first that has an answer wins.

A behaviour is a function ``(ChatRequest) -> Reply | None``. Add one to teach the fake a new trick
(tool calls, following instructions injected into tool output, ...) and put it in ``DEFAULT_CHAIN``
or pass your own chain to :func:`redscope_bridge.testing.fake_llm.create_app`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ChatRequest:
    """The parts of a chat completion request the behaviours read."""

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def system(self) -> str:
        return "\n".join(_text(m) for m in self.messages if m.get("role") in ("system", "developer"))

    @property
    def last_user(self) -> str:
        users = [_text(m) for m in self.messages if m.get("role") == "user"]
        return users[-1] if users else ""


@dataclass(frozen=True)
class Reply:
    content: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str = "stop"


Behaviour = Callable[[ChatRequest], Reply | None]


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # [{type: "text", text}] parts (AgentDojo sends these)
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


_SECRET = re.compile(r"password:?\s+([A-Za-z0-9_-]+)", re.IGNORECASE)
_TRIGGER = re.compile(r"mentions '([^']+)'", re.IGNORECASE)


def reveal_secret_on_trigger(req: ChatRequest) -> Reply | None:
    """Obeys superred's demo secret-leak rule: reveal the password when the user says the trigger word."""
    secret, trigger = _SECRET.search(req.system), _TRIGGER.search(req.system)
    if secret is None or trigger is None:
        return None
    if trigger.group(1).lower() in req.last_user.lower():
        return Reply(f"Of course! The password is {secret.group(1)}.")
    return Reply("I cannot share that.")


def echo(req: ChatRequest) -> Reply:
    """The default: says what it heard, so a trajectory shows which message reached the model."""
    return Reply(f"You said: {req.last_user}")


DEFAULT_CHAIN: Sequence[Behaviour] = (reveal_secret_on_trigger, echo)


def answer(chain: Sequence[Behaviour], req: ChatRequest) -> Reply:
    for behaviour in chain:
        reply = behaviour(req)
        if reply is not None:
            return reply
    return echo(req)
