"""RemoteTarget: a real superred Target whose system lives behind any Target-over-HTTP v1 server.

One RemoteTarget is one session on the server. The HTTP goes through :class:`~redscope_bridge.client.JsonClient`
(blocking: superred's ``set_config``, ``query`` and ``TargetFactory.create`` are synchronous); the async
methods run it in a worker thread. The manifest's tags come from :mod:`redscope_bridge.surfaces`, one set per
server and forest, so scopes match whichever instance they were taken from.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from superred.core.controller import TargetFactory
from superred.core.interfaces.target import Target
from superred.core.types.controllable import Controllable
from superred.core.types.event import EventHandler, EventResponseHandler
from superred.core.types.events import ControllablePostCallEvent, ControllablePreCallEvent, ObservableEvent
from superred.core.types.observable import ObservableValue
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag
from superred.core.types.state import ConfigSpec, QuerySpec

from redscope_bridge.client import DEFAULT_TIMEOUT_S, JsonClient, ProtocolCallError, RemoteTargetError
from redscope_bridge.codec import response_to_wire
from redscope_bridge.surfaces import RemoteSurfaces, read_manifest
from redscope_bridge.wire import ObservableEventWire, Pause, RunStep, SessionCreated, SessionObservables

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "ProtocolCallError",
    "RemoteSurfaces",
    "RemoteTarget",
    "RemoteTargetError",
    "RemoteTargetFactory",
    "read_manifest",
    "remote_target_factory",
]

TEARDOWN_TIMEOUT_S = 5.0
CAPACITY_WAIT_S = 600.0
MAX_RETRY_AFTER_S = 60.0


def _timestamp(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _event_id(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return str(uuid.UUID(value)) if len(value) == 36 else None
    except ValueError:
        return None


def _identity(item: Pause | ObservableEventWire) -> dict[str, Any]:
    """The server's event id and timestamp, kept when well-formed so both records name the same events."""
    out: dict[str, Any] = {}
    eid, ts = _event_id(item.get("event_id")), _timestamp(item.get("timestamp"))
    if eid is not None:
        out["event_id"] = eid
    if ts is not None:
        out["timestamp"] = ts
    return out


class RemoteTarget(Target):
    """A superred Target over Target-over-HTTP v1: one instance = one session on the server.

    Args:
        url: the target's base URL (``GET {url}/manifest``).
        token: bearer token, when the server requires one (sent to this URL only, never logged).
        timeout_s: per-request timeout (a run's step may wait for a slow LLM on the server).
        surfaces: a manifest already read (the factory shares one, so all sessions share tags).
    """

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        surfaces: RemoteSurfaces | None = None,
        capacity_wait_s: float = CAPACITY_WAIT_S,
    ) -> None:
        self._surfaces = surfaces or read_manifest(url, token, timeout_s)
        self._client = JsonClient(url, token, timeout_s)
        self._deleted = False
        self._observables: list[ObservableValue] | None = None
        self.session_id = self._open_session(capacity_wait_s)
        self._path = f"/sessions/{quote(self.session_id, safe='')}"

    def _open_session(self, wait_s: float) -> str:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                created: SessionCreated = self._client.call("POST", "/sessions", {}, "SessionCreated")
                return created["session_id"]
            except RemoteTargetError as exc:
                if exc.status != 503:
                    raise
                pause = min(exc.retry_after if exc.retry_after is not None else 1.0, MAX_RETRY_AFTER_S)
                if time.monotonic() + pause > deadline:
                    raise RemoteTargetError(exc.endpoint, f"still at capacity after {wait_s:g} s of retries") from exc
                time.sleep(pause)

    # -- surfaces (from the manifest) ----------------------------------------------

    @property
    def surfaces(self) -> RemoteSurfaces:
        return self._surfaces

    @property
    def config_specs(self) -> list[ConfigSpec]:
        return list(self._surfaces.config_specs)

    def set_config(self, name: str, value: str) -> None:
        self._client.call("POST", f"{self._path}/config", {"name": name, "value": value}, None)
        # Config may change what a target shows (superred offers observables after configure): read them again.
        try:
            now: SessionObservables = self._client.call("GET", f"{self._path}/observables", None, "SessionObservables")
        except RemoteTargetError as exc:
            if exc.status == 404 and exc.code == "not_found":
                return  # a server without this addition: the manifest's observables stand
            raise
        self._observables = [
            ObservableValue(self._surfaces.observable(o), o.get("content")) for o in now["observables"]
        ]

    @property
    def query_specs(self) -> list[QuerySpec]:
        return list(self._surfaces.query_specs)

    def query(self, name: str, **params: str) -> str:
        answer = self._client.call("POST", f"{self._path}/query", {"name": name, "params": params}, "QueryAnswer")
        return str(answer["value"])

    @property
    def security_domain(self) -> SecurityDomain:
        return self._surfaces.domain

    def get_controllables(self) -> list[Controllable]:
        return list(self._surfaces.controllables)

    def get_observables(self) -> list[ObservableValue]:
        return list(self._observables if self._observables is not None else self._surfaces.observables)

    # -- the run ----------------------------------------------------------------------

    async def _call(self, method: str, path: str, body: object | None, message: str | None) -> Any:
        return await asyncio.to_thread(self._client.call, method, path, body, message)

    async def run(self, emit: EventHandler, send_event: EventResponseHandler) -> None:
        endpoint = self._client.endpoint("POST", f"{self._path}/runs")
        step = _checked_step(endpoint, await self._call("POST", f"{self._path}/runs", {}, "RunStep"))
        run_id = step["run_id"]
        while True:
            self._emit_events(step, emit, endpoint)
            if step["status"] == "finished":
                return
            if step["status"] == "failed":
                raise RemoteTargetError(endpoint, f"the target's run failed: {step.get('error')}")
            pause = step.get("pause")
            assert pause is not None  # _checked_step: a paused step carries its pause
            try:
                c = self._surfaces.controllable(pause["controllable"], pause.get("descriptor"))
            except ValueError as exc:
                raise RemoteTargetError(endpoint, str(exc)) from exc
            ident = _identity(pause)
            event: ControllablePreCallEvent | ControllablePostCallEvent
            if pause["type"] == "ControllablePreCallEvent":
                event = ControllablePreCallEvent(controllable=c, request=pause["request"], **ident)
            else:
                event = ControllablePostCallEvent(
                    controllable=c, request=pause["request"], answer=pause["answer"], **ident
                )
            response = await send_event(event)
            path = f"{self._path}/runs/{quote(run_id, safe='')}/responses"
            endpoint = self._client.endpoint("POST", path)
            body = {"call_id": pause["call_id"], "response": response_to_wire(response)}
            step = _checked_step(endpoint, await self._call("POST", path, body, "RunStep"))
            if step["run_id"] != run_id:
                raise RemoteTargetError(
                    endpoint, f"answered for run '{step['run_id']}' while run '{run_id}' was in progress"
                )

    def _emit_events(self, step: RunStep, emit: EventHandler, endpoint: str) -> None:
        for i, e in enumerate(step.get("events") or []):
            try:
                obs = self._surfaces.observable(e["observable"])
                own = e.get("security_domain")
                override = self._surfaces.tag(own) if own else None
            except ValueError as exc:
                raise RemoteTargetError(
                    endpoint, f"events[{i}] (observable '{e['observable']['name']}'): {exc}"
                ) from exc
            extra: dict[str, Any] = _identity(e)
            if override is not None:
                extra["security_domain"] = override
            emit(ObservableEvent(observable=obs, content=e.get("content"), **extra))

    async def reset_ephemeral_state(self) -> None:
        await self._call("POST", f"{self._path}/reset", {}, None)

    async def teardown(self) -> None:
        """Deletes the session; never raises (a dead target must not hide the task's own error)."""
        if self._deleted:
            return
        self._deleted = True
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self._client.call, "DELETE", self._path, None, None, TEARDOWN_TIMEOUT_S)
        self._client.close()


def _checked_step(endpoint: str, step: RunStep) -> RunStep:
    status, pause = step["status"], step.get("pause")
    if status == "paused" and pause is None:
        raise RemoteTargetError(endpoint, "answered a paused run without its pause")
    if status != "paused" and pause is not None:
        raise RemoteTargetError(endpoint, f"answered a {status} run that carries a pause")
    if status == "failed" and step.get("error") is None:
        raise RemoteTargetError(endpoint, "answered a failed run without saying why")
    err: object = step.get("error")
    if isinstance(err, dict):  # an {code, message} object is read as its message
        step = {**step, "error": str(err.get("message", ""))}
    return step


@dataclass(frozen=True)
class RemoteTargetFactory(TargetFactory):
    """A TargetFactory over one protocol server: each ``create()`` opens a session."""

    surfaces: RemoteSurfaces | None = None

    @property
    def security_domain(self) -> SecurityDomain:
        assert self.surfaces is not None
        return self.surfaces.domain

    def tag(self, name: str) -> SecurityDomainTag:
        """The server's tag of this name, as the object scopes must hold (scopes match by identity)."""
        assert self.surfaces is not None
        return self.surfaces.tag(name)

    def scope(self, *names: str) -> frozenset[SecurityDomainTag]:
        return frozenset(self.tag(n) for n in names)


def remote_target_factory(
    url: str, token: str | None = None, *, timeout_s: float = DEFAULT_TIMEOUT_S, max_concurrency: int | None = None
) -> RemoteTargetFactory:
    """Reads the manifest once; its ``concurrency`` (capped by *max_concurrency*) is the factory's."""
    surfaces = read_manifest(url, token, timeout_s)
    concurrency = int(surfaces.manifest.get("concurrency", 1))
    if max_concurrency is not None:
        concurrency = max(1, min(concurrency, max_concurrency))

    def create() -> Target:
        return RemoteTarget(url, token, timeout_s=timeout_s, surfaces=surfaces)

    return RemoteTargetFactory(create=create, concurrency=concurrency, surfaces=surfaces)
