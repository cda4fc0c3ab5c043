"""The protocol over HTTP with aiohttp: routes -> sessions, every fault -> ``{"error": {code, message}}``.

aiohttp because it is already in superred's dependency tree (through litellm), so serving costs no
extra package, and it gives one asyncio loop for the server and the targets' own ``run`` coroutines.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from superred.core.controller import TargetFactory

from redscope_bridge.codec import observables_json
from redscope_bridge.errors import ProtocolError, error_text
from redscope_bridge.guard import WrongTokens, check_content_type, check_depth, forbidden_origin, same_origin
from redscope_bridge.optimizer_host import OptimizerHost
from redscope_bridge.redact import Redactor
from redscope_bridge.schema import require
from redscope_bridge.session import TargetSession

DEFAULT_MAX_BODY_BYTES = 1024 * 1024
DEFAULT_IDLE_S = 600.0
_LOOPBACK_HOST = re.compile(r"^127(?:\.\d{1,3}){3}$")


def is_loopback_hostname(name: str) -> bool:
    return name in ("localhost", "[::1]") or name.endswith(".localhost") or bool(_LOOPBACK_HOST.match(name))


def hostname_of(host: str) -> str:
    h = host.strip().lower()
    if h.startswith("["):
        return h[: h.find("]") + 1]
    return h.split(":")[0]


def host_allowed(host: str | None, allowed: Sequence[str] | bool) -> bool:
    """Against DNS rebinding: only loopback names, or the names the server was told to answer."""
    if allowed is True:
        return True
    if host is None:
        return False
    name = hostname_of(host)
    if is_loopback_hostname(name):
        return True
    assert not isinstance(allowed, bool)
    for a in (x.lower() for x in allowed):
        if (a.startswith(".") and (name == a[1:] or name.endswith(a))) or name == a:
            return True
    return False


def is_loopback_origin(origin: str) -> bool:
    try:
        url = urlsplit(origin)
    except ValueError:
        return False
    host = (url.hostname or "").lower()
    if url.scheme not in ("http", "https"):
        return False
    return host in ("localhost", "::1") or bool(_LOOPBACK_HOST.match(host))


def origin_allowed(origin: str, allowed: Sequence[str] | None) -> bool:
    if allowed is None:
        return is_loopback_origin(origin)
    return "*" in allowed or origin in allowed


@dataclass
class ServeOptions:
    """A target (``factory`` and its ``manifest``), served optimizers (``optimizers``), or both."""

    factory: TargetFactory | None
    manifest: dict[str, Any] | None
    concurrency: int
    token: str | None = None
    allowed_origins: Sequence[str] | None = None  # None: loopback origins only
    allowed_hosts: Sequence[str] | bool = ()
    idle_timeout_s: float = DEFAULT_IDLE_S
    retry_after_s: int = 1
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    log: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr, flush=True))
    optimizers: OptimizerHost | None = None
    #: Masked out of every answer and log line (redact.py): the keys the target was given, the token.
    secrets: Sequence[str] = ()


class BridgeServer:
    """Sessions of one served target and of the served optimizers. Every fault stays with its request or session."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.sessions: dict[str, TargetSession] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._redact = Redactor(options.secrets)
        self._wrong_tokens = WrongTokens()

    def _log(self, line: str) -> None:
        self.options.log(self._redact(line))

    # -- sessions ---------------------------------------------------------------

    async def _expire(self) -> None:
        now = time.monotonic()
        for s in [s for s in self.sessions.values() if now - s.last_seen > self.options.idle_timeout_s]:
            self.sessions.pop(s.id, None)
            await self._close_quietly(s, "expired")
        if self.options.optimizers is not None:
            await self.options.optimizers.expire(self.options.idle_timeout_s)

    async def _close_quietly(self, s: TargetSession, why: str) -> None:
        try:
            await s.close(f"session {why}")
        except ProtocolError as exc:
            self._log(f"session {s.id[:8]} ({why}): {exc.message}")

    async def _sweep(self) -> None:
        period = max(0.01, min(self.options.idle_timeout_s / 2, 30.0))
        while True:
            await asyncio.sleep(period)
            await self._expire()

    def _start_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep())

    async def _session(self, sid: str) -> TargetSession:
        await self._expire()
        s = self.sessions.get(sid)
        if s is None:
            raise ProtocolError(404, "unknown_session", f"no session '{sid}' (unknown, deleted or expired)")
        s.last_seen = time.monotonic()
        return s

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        sessions, self.sessions = list(self.sessions.values()), {}
        for s in sessions:
            await self._close_quietly(s, "server closed")
        if self.options.optimizers is not None:
            await self.options.optimizers.close_all()

    # -- HTTP -------------------------------------------------------------------

    async def _body(self, request: web.Request, message: str) -> dict[str, Any]:
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge as exc:
            raise ProtocolError(
                413, "payload_too_large", f"request body over {self.options.max_body_bytes} bytes"
            ) from exc
        check_content_type(request.headers.get("Content-Type"), bool(raw.strip()))
        data: object = {}
        try:
            if raw.strip():
                check_depth(raw)
                data = json.loads(raw.decode("utf-8"))
            require(message, data)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProtocolError(400, "bad_request", f"body is not JSON: {exc}") from exc
        except RecursionError as exc:
            # Within the limit, but deeper than this stack decodes (or validates): still the client's fault.
            raise ProtocolError(400, "bad_request", "body is JSON nested too deeply to decode") from exc
        assert isinstance(data, dict)
        return data

    async def route(self, request: web.Request, method: str, parts: list[str]) -> web.StreamResponse:
        if parts and parts[0] in ("optimizers", "optimizer-sessions"):
            host = self.options.optimizers
            if host is None:
                raise ProtocolError(404, "not_found", "this bridge serves no optimizer (serve one with --optimizer)")

            async def read_body(message: str) -> dict[str, Any]:
                return await self._body(request, message)

            await self._expire()
            status, answer = await host.route(method, parts, read_body)
            self._start_sweeper()
            return _json(status, answer)
        if parts in (["manifest"], ["sessions"]) and self.options.factory is None:
            raise ProtocolError(
                404, "not_found", "this bridge serves no target, only optimizers (their list: GET /optimizers)"
            )
        if parts == ["manifest"]:
            if method != "GET":
                raise _not_allowed(method)
            return _json(200, self.options.manifest)
        if not parts or parts[0] != "sessions":
            raise ProtocolError(404, "not_found", f"no endpoint {method} /{'/'.join(parts)}")
        if len(parts) == 1:
            if method != "POST":
                raise _not_allowed(method)
            await self._body(request, "EmptyBody")
            await self._expire()
            if len(self.sessions) >= self.options.concurrency:
                raise ProtocolError(
                    503,
                    "capacity",
                    f"{self.options.concurrency} sessions are open; retry later",
                    {"Retry-After": str(self.options.retry_after_s)},
                )
            assert self.options.factory is not None
            try:
                target = self.options.factory.create()
            except Exception as exc:
                raise ProtocolError(500, "target_error", f"the target could not be created: {error_text(exc)}") from exc
            sid = str(uuid.uuid4())
            self.sessions[sid] = TargetSession(sid, target, time.monotonic())
            self._start_sweeper()
            return _json(201, {"session_id": sid})
        sid = parts[1]
        if len(parts) == 2:
            if method != "DELETE":
                raise _not_allowed(method)
            s = self.sessions.pop(sid, None)
            if s is not None:
                await s.close()  # 204 also for an unknown or expired session: teardown is idempotent
            return web.Response(status=204)
        if len(parts) == 3 and parts[2] == "observables":
            s = await self._session(sid)
            if method != "GET":
                raise _not_allowed(method)
            # The session's static observables now: config may change them (ChatbotTarget's system prompt).
            return _json(200, {"observables": observables_json(s.target)})
        if method != "POST":
            await self._session(sid)
            raise _not_allowed(method)
        rest = "/".join(parts[2:])
        if rest == "config":
            s = await self._session(sid)
            body = await self._body(request, "ConfigBody")
            await s.set_config(body["name"], body["value"])
            return web.Response(status=204)
        if rest == "task":
            s = await self._session(sid)
            body = await self._body(request, "TaskBody")
            await s.select_task(body["task"])
            return web.Response(status=204)
        if rest == "runs":
            s = await self._session(sid)
            await self._body(request, "EmptyBody")
            return _json(200, await s.start_run())
        if len(parts) == 5 and parts[2] == "runs" and parts[4] == "responses":
            s = await self._session(sid)
            body = await self._body(request, "ResponseBody")
            return _json(200, await s.respond(parts[3], body["call_id"], body["response"]))
        if rest == "query":
            s = await self._session(sid)
            body = await self._body(request, "QueryBody")
            return _json(200, {"value": await s.query(body["name"], body.get("params") or {})})
        if rest == "reset":
            s = await self._session(sid)
            await self._body(request, "EmptyBody")
            await s.reset()
            return web.Response(status=204)
        await self._session(sid)
        raise ProtocolError(404, "not_found", f"no endpoint {method} /{'/'.join(parts)}")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method = request.method
        path = request.path
        response: web.StreamResponse
        origin = request.headers.get("Origin")
        cors_ok = origin is not None and origin_allowed(origin, self.options.allowed_origins)
        host_ok = host_allowed(request.headers.get("Host"), self.options.allowed_hosts)
        try:
            if not host_ok:
                host = json.dumps(request.headers.get("Host", ""))
                raise ProtocolError(403, "forbidden_host", f"host {host} is not allowed here")
            refused = origin is not None and not cors_ok and not same_origin(origin, request.headers.get("Host"))
            if refused and method != "OPTIONS":
                assert origin is not None
                raise forbidden_origin(origin)  # before the token, the body or the route: no effect at all
            if method == "OPTIONS":
                response = web.Response(status=204)
                if cors_ok:
                    response.headers["Access-Control-Allow-Methods"] = "GET, POST, DELETE, OPTIONS"
                    response.headers["Access-Control-Allow-Headers"] = "authorization, content-type"
                    response.headers["Access-Control-Max-Age"] = "600"
            else:
                token = self.options.token
                header = request.headers.get("Authorization")
                address = request.remote or ""
                if token is not None:
                    self._wrong_tokens.check(address)
                if token is not None and not _bearer_matches(header, token):
                    if header is not None:  # a missing header is no guess
                        self._wrong_tokens.failed(address)
                    raise ProtocolError(
                        401,
                        "unauthorized",
                        "this target requires Authorization: Bearer <token>",
                        {"WWW-Authenticate": "Bearer"},
                    )
                parts = [p for p in path.split("/") if p]
                response = await self.route(request, method, parts)
        except ProtocolError as exc:
            response = _json(exc.status, {"error": {"code": exc.code, "message": exc.message}})
            for k, v in exc.headers.items():
                response.headers[k] = v
        except Exception as exc:
            response = _json(500, {"error": {"code": "internal", "message": error_text(exc)}})
        if cors_ok and host_ok:
            assert origin is not None
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = "Retry-After"
        response.headers["Vary"] = "Origin"
        if self._redact and isinstance(response, web.Response) and response.text:
            # Every answer, whatever wrote it (a run's error, an observation, a query's value): one place.
            response.text = self._redact(response.text)
        # One line per request: never headers or bodies, which may hold tokens or payloads.
        self._log(f"{method} {path} {response.status}")
        return response

    def application(self) -> web.Application:
        app = web.Application(client_max_size=self.options.max_body_bytes, handler_args={"max_field_size": 16384})
        app.router.add_route("*", "/{tail:.*}", self.handle)

        async def on_cleanup(_app: web.Application) -> None:
            await self.close()

        app.on_cleanup.append(on_cleanup)
        return app


def _bearer_matches(header: str | None, token: str) -> bool:
    presented = header[7:] if header is not None and header.startswith("Bearer ") else ""
    # Constant time, so the token cannot be guessed byte by byte from timings.
    return hmac.compare_digest(presented.encode("utf-8"), token.encode("utf-8"))


def _json(status: int, body: object) -> web.Response:
    return web.Response(status=status, text=json.dumps(body), content_type="application/json", charset="utf-8")


def _not_allowed(method: str) -> ProtocolError:
    return ProtocolError(405, "method_not_allowed", f"{method} is not allowed here")


@dataclass
class RunningServer:
    url: str
    port: int
    server: BridgeServer
    runner: web.AppRunner

    async def close(self) -> None:
        await self.runner.cleanup()


async def start(options: ServeOptions, host: str = "127.0.0.1", port: int = 0) -> RunningServer:
    """Listens (port 0: any free port) and returns the running server; ``close()`` tears every session down."""
    server = BridgeServer(options)
    runner = web.AppRunner(server.application(), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    sockets = getattr(site._server, "sockets", None) or []  # aiohttp exposes the bound port only here
    bound = sockets[0].getsockname()[1] if sockets else port
    shown = f"[{host}]" if ":" in host else host
    return RunningServer(url=f"http://{shown}:{bound}", port=bound, server=server, runner=runner)
