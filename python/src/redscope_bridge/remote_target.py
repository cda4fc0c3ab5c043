"""RemoteTarget: a real superred Target whose system lives behind any Target-over-HTTP v1 server.

superred's Target interface is partly synchronous (``set_config``, ``query``, the factory's
``create``), so every call goes through one blocking HTTP client (http.client, one keep-alive
connection per session); the async methods run it in a worker thread, so a run never blocks the
event loop while it waits for the target.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlsplit

from superred.core.controller import TargetFactory
from superred.core.interfaces.target import Target
from superred.core.types.controllable import Controllable
from superred.core.types.event import EventHandler, EventResponseHandler
from superred.core.types.events import ControllablePostCallEvent, ControllablePreCallEvent, ObservableEvent
from superred.core.types.observable import Observable, ObservableValue
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag
from superred.core.types.state import ConfigSpec, QueryParam, QuerySpec

from redscope_bridge.codec import response_to_wire
from redscope_bridge.schema import problems

DEFAULT_TIMEOUT_S = 120.0
TEARDOWN_TIMEOUT_S = 5.0
CAPACITY_WAIT_S = 600.0
MAX_RETRY_AFTER_S = 60.0
MAX_ANSWER_BYTES = 32 * 1024 * 1024
_PROTOCOL = re.compile(r"^superred-target-http/(\d+)(?:\.\d+)*$")


class RemoteTargetError(RuntimeError):
    """A protocol call failed; the message starts with the method and URL (never the token)."""

    def __init__(
        self,
        endpoint: str,
        message: str,
        status: int | None = None,
        code: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{endpoint}: {message}")
        self.endpoint = endpoint
        self.status = status
        self.code = code
        self.retry_after = retry_after


class _Client:
    """Blocking JSON calls to one base URL. One connection, reused (keep-alive), one call at a time."""

    def __init__(self, url: str, token: str | None, timeout_s: float) -> None:
        parts = urlsplit(url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not an http(s) URL")
        self.base = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}"
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path
        self._token = token
        self._timeout = timeout_s
        self._conn: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()

    def endpoint(self, method: str, path: str) -> str:
        return f"{method} {self.base}{path}"

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self._timeout)
        return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def call(
        self, method: str, path: str, body: object | None, message: str | None, timeout_s: float | None = None
    ) -> Any:
        endpoint = self.endpoint(method, path)
        headers = {"Accept": "application/json"}
        data: bytes | None = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self._token is not None:
            headers["Authorization"] = f"Bearer {self._token}"
        with self._lock:
            status, reason, raw, retry_after = self._send(endpoint, method, path, data, headers, timeout_s)
        return self._answer(endpoint, status, reason, raw, retry_after, message)

    def _send(
        self,
        endpoint: str,
        method: str,
        path: str,
        data: bytes | None,
        headers: dict[str, str],
        timeout_s: float | None,
    ) -> tuple[int, str, bytes, str | None]:
        for attempt in (1, 2):
            reused = self._conn is not None
            conn = self._connection()
            conn.timeout = timeout_s or self._timeout
            if conn.sock is not None:
                conn.sock.settimeout(conn.timeout)
            try:
                conn.request(method, self._prefix + path, body=data, headers=headers)
                resp = conn.getresponse()
                raw = resp.read(MAX_ANSWER_BYTES + 1)
                if len(raw) > MAX_ANSWER_BYTES:
                    self._drop()
                    raise RemoteTargetError(endpoint, "answered with more than 32 MB (the limit for one answer)")
                if resp.getheader("Connection", "").lower() == "close":
                    self._drop()
                return resp.status, resp.reason, raw, resp.getheader("Retry-After")
            except TimeoutError as exc:
                self._drop()
                raise RemoteTargetError(endpoint, f"no answer within {conn.timeout:g} s (per-request timeout)") from exc
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                self._drop()
                # A kept-alive connection the server had closed: send once more on a fresh one.
                if reused and attempt == 1:
                    continue
                raise RemoteTargetError(endpoint, "the connection was dropped before an answer came") from exc
            except OSError as exc:
                self._drop()
                raise RemoteTargetError(endpoint, f"cannot connect ({exc.strerror or exc})") from exc
        raise AssertionError("unreachable")

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _answer(
        self, endpoint: str, status: int, reason: str, raw: bytes, retry_after: str | None, message: str | None
    ) -> Any:
        text = raw.decode("utf-8", errors="replace")
        if self._token:
            text = text.replace(self._token, "[redacted]")
        if status >= 400:
            code, detail = None, text[:300]
            with contextlib.suppress(ValueError, AttributeError, TypeError):
                err = json.loads(text)["error"]
                code, detail = str(err["code"]), str(err.get("message", ""))
            ra = None
            with contextlib.suppress(TypeError, ValueError):
                ra = float(retry_after) if retry_after is not None else None
            label = f"{status} {code}" if code else f"{status} {reason}"
            raise RemoteTargetError(endpoint, f"answered {label}: {detail}", status, code, ra)
        if message is None:
            return None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise RemoteTargetError(endpoint, f"answered {status} with a body that is not JSON") from exc
        bad = problems(message, data)
        if bad:
            raise RemoteTargetError(
                endpoint, f"answered {status} with a body that breaks the protocol: {'; '.join(bad[:3])}"
            )
        return data


@dataclass
class RemoteSurfaces:
    """A manifest as superred objects, built once per URL: scopes match tags by identity."""

    manifest: dict[str, Any]
    tags: dict[str, SecurityDomainTag] = field(default_factory=dict)
    domain: SecurityDomain = field(init=False)
    controllables: list[Controllable] = field(init=False)
    observables: list[ObservableValue] = field(init=False)
    config_specs: list[ConfigSpec] = field(init=False)
    query_specs: list[QuerySpec] = field(init=False)

    def __post_init__(self) -> None:
        m = self.manifest
        by_name = {t["name"]: t for t in m["security_domain"]}

        def build(name: str, seen: tuple[str, ...] = ()) -> SecurityDomainTag:
            if name in self.tags:
                return self.tags[name]
            if name in seen:
                raise ValueError(f"security_domain: parent cycle through '{name}'")
            if name not in by_name:
                raise ValueError(f"tag '{name}' is not in the manifest's security_domain")
            parent = by_name[name].get("parent")
            tag = SecurityDomainTag(name, build(parent, (*seen, name)) if parent else None)
            self.tags[name] = tag
            return tag

        ordered = [build(t["name"]) for t in m["security_domain"]]
        self.domain = SecurityDomain(ordered)
        self.controllables = [
            Controllable(
                c["name"], self.tag(c["security_domain"]), c.get("description", ""), c.get("value_type", "text")
            )
            for c in m["controllables"]
        ]
        self.observables = [ObservableValue(self.observable(o), o.get("content")) for o in m["observables"]]
        self.config_specs = [
            ConfigSpec(
                c["name"],
                self.tag(c["security_domain"]) if c.get("security_domain") else None,  # type: ignore[arg-type]
                c.get("description", ""),
            )
            for c in m.get("config_specs", [])
        ]
        self.query_specs = [
            QuerySpec(
                q["name"],
                q.get("description", ""),
                [QueryParam(p["name"], p.get("description", "")) for p in q.get("params", [])],
            )
            for q in m.get("query_specs", [])
        ]

    def tag(self, name: str) -> SecurityDomainTag:
        if name not in self.tags:
            raise ValueError(f"tag '{name}' is not in the manifest's security_domain")
        return self.tags[name]

    def observable(self, spec: dict[str, Any]) -> Observable:
        domain = spec.get("security_domain")
        return Observable(
            spec["name"],
            self.tag(domain) if domain else None,  # type: ignore[arg-type]
            spec.get("description", ""),
            spec.get("observable_type", "text"),
        )

    def controllable(self, name: str, descriptor: dict[str, Any] | None) -> Controllable:
        declared = next((c for c in self.controllables if c.name == name), None)
        if declared is None:
            raise ValueError(f"the target paused at controllable '{name}', which its manifest does not declare")
        if descriptor is None:
            return declared
        return Controllable(
            name,
            self.tag(descriptor["security_domain"]),
            descriptor.get("description", ""),
            descriptor.get("value_type", "text"),
        )


def read_manifest(url: str, token: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S) -> RemoteSurfaces:
    """Reads and checks a target's manifest (protocol major 1, a forest superred can build)."""
    client = _Client(url, token, timeout_s)
    try:
        manifest = client.call("GET", "/manifest", None, "Manifest")
    finally:
        client.close()
    endpoint = client.endpoint("GET", "/manifest")
    m = _PROTOCOL.match(str(manifest.get("protocol", "")))
    if m is None or m.group(1) != "1":
        raise RemoteTargetError(
            endpoint, f"speaks {manifest.get('protocol')!r}; this client speaks superred-target-http/1"
        )
    try:
        return RemoteSurfaces(manifest)
    except (ValueError, KeyError) as exc:
        raise RemoteTargetError(endpoint, f"the manifest cannot be built as superred objects: {exc}") from exc


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


def _identity(item: dict[str, Any]) -> dict[str, Any]:
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
        self._client = _Client(url, token, timeout_s)
        self._deleted = False
        self._observables: list[ObservableValue] | None = None
        self.session_id = self._open_session(capacity_wait_s)
        self._path = f"/sessions/{quote(self.session_id, safe='')}"

    def _open_session(self, wait_s: float) -> str:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                return str(self._client.call("POST", "/sessions", {}, "SessionCreated")["session_id"])
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
            now = self._client.call("GET", f"{self._path}/observables", None, "SessionObservables")
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
            pause = step["pause"]
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

    def _emit_events(self, step: dict[str, Any], emit: EventHandler, endpoint: str) -> None:
        for i, e in enumerate(step.get("events") or []):
            try:
                obs = self._surfaces.observable(e["observable"])
                override = self._surfaces.tag(e["security_domain"]) if e.get("security_domain") else None
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


def _checked_step(endpoint: str, step: dict[str, Any]) -> dict[str, Any]:
    status, pause = step["status"], step.get("pause")
    if status == "paused" and pause is None:
        raise RemoteTargetError(endpoint, "answered a paused run without its pause")
    if status != "paused" and pause is not None:
        raise RemoteTargetError(endpoint, f"answered a {status} run that carries a pause")
    if status == "failed" and step.get("error") is None:
        raise RemoteTargetError(endpoint, "answered a failed run without saying why")
    err = step.get("error")
    if isinstance(err, dict):
        step = {**step, "error": err.get("message", "")}
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
