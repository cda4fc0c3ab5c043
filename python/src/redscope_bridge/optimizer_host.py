"""The served optimizers and their sessions: the Optimizer-over-HTTP routes of ``redscope-bridge serve``.

``GET /optimizers`` lists them; ``POST /optimizers/{name}/kwargs`` checks keyword arguments;
``POST /optimizer-sessions`` opens one (a task's optimizer), ``POST /optimizer-sessions/{sid}/events``
delivers one event, ``DELETE /optimizer-sessions/{sid}`` closes it (docs/optimizer-protocol.md).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redscope_bridge.errors import ProtocolError
from redscope_bridge.llm import LlmSettings
from redscope_bridge.optimizer_loader import ServedOptimizer
from redscope_bridge.optimizer_session import OptimizerSession
from redscope_bridge.wire import OptimizerManifest

OPTIMIZER_PROTOCOL_VERSION = "superred-optimizer-http/1"
DEFAULT_OPTIMIZER_CONCURRENCY = 16

#: Reads and validates a request body against a named message of the protocol.
BodyReader = Callable[[str], Awaitable[dict[str, Any]]]


@dataclass
class OptimizerHost:
    optimizers: list[ServedOptimizer]
    llm: LlmSettings | None = None
    concurrency: int = DEFAULT_OPTIMIZER_CONCURRENCY
    retry_after_s: int = 1
    log: Callable[[str], None] = field(default=lambda _line: None)
    sessions: dict[str, OptimizerSession] = field(default_factory=dict)

    def manifest(self) -> OptimizerManifest:
        model = self.llm.model if self.llm is not None else None
        return {
            "protocol": OPTIMIZER_PROTOCOL_VERSION,
            "optimizers": [o.wire(model) for o in self.optimizers],
            "concurrency": self.concurrency,
        }

    def served(self, name: str) -> ServedOptimizer:
        for o in self.optimizers:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.optimizers)
        raise ProtocolError(422, "unknown_optimizer", f"no optimizer named '{name}' is served here (served: {known})")

    # -- sessions ---------------------------------------------------------------------------------------

    async def expire(self, idle_timeout_s: float) -> None:
        now = time.monotonic()
        # A session answering an event is never idle: an optimizer may think (call its LLM) for minutes.
        stale = [s for s in self.sessions.values() if not s.busy and now - s.last_seen > idle_timeout_s]
        for s in stale:
            self.sessions.pop(s.id, None)
            await s.close()
            self.log(f"optimizer session {s.id[:8]} expired")

    async def close_all(self) -> None:
        sessions, self.sessions = list(self.sessions.values()), {}
        for s in sessions:
            await s.close()

    def _session(self, sid: str) -> OptimizerSession:
        s = self.sessions.get(sid)
        if s is None:
            raise ProtocolError(404, "unknown_session", f"no optimizer session '{sid}' (unknown, closed or expired)")
        s.last_seen = time.monotonic()
        return s

    # -- HTTP -------------------------------------------------------------------------------------------

    async def route(self, method: str, parts: list[str], body: BodyReader) -> tuple[int, object | None]:
        """``(status, JSON body)`` for a path under /optimizers or /optimizer-sessions."""
        if parts == ["optimizers"]:
            _allow(method, "GET")
            return 200, self.manifest()
        if parts[0] == "optimizers" and len(parts) == 3 and parts[2] == "kwargs":
            _allow(method, "POST")
            served = self.served(parts[1])
            data = await body("KwargsBody")
            kwargs = data.get("kwargs") or {}
            served.construct(kwargs)  # what its constructor refuses, it refuses here too (then it is dropped)
            return 200, {"kwargs": served.merged(kwargs)}
        if parts == ["optimizer-sessions"]:
            _allow(method, "POST")
            data = await body("OpenSessionBody")
            served = self.served(data["optimizer"])
            if len(self.sessions) >= self.concurrency:
                raise ProtocolError(
                    503,
                    "capacity",
                    f"{self.concurrency} optimizer sessions are open; retry later",
                    {"Retry-After": str(self.retry_after_s)},
                )
            sid = str(uuid.uuid4())
            session = await OptimizerSession.open(sid, served, data, self.llm)  # type: ignore[arg-type]
            session.last_seen = time.monotonic()
            self.sessions[sid] = session
            return 201, {"session_id": sid, "usage": session.usage(), "llm_calls": session.llm_calls()}
        if parts[0] == "optimizer-sessions" and len(parts) == 2:
            _allow(method, "DELETE")
            s = self._session(parts[1])
            self.sessions.pop(s.id, None)
            return 200, await s.close()
        if parts[0] == "optimizer-sessions" and len(parts) == 3 and parts[2] == "events":
            s = self._session(parts[1])
            _allow(method, "POST")
            data = await body("EventBody")
            try:
                return 200, await s.handle(data)  # type: ignore[arg-type]
            finally:
                s.last_seen = time.monotonic()
        raise ProtocolError(404, "not_found", f"no endpoint {method} /{'/'.join(parts)}")


def _allow(method: str, allowed: str) -> None:
    if method != allowed:
        raise ProtocolError(405, "method_not_allowed", f"{method} is not allowed here")
