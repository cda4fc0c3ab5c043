"""Blocking HTTP+JSON calls to one protocol server, shared by RemoteTarget and RemoteOptimizer.

superred's Target interface is partly synchronous (``set_config``, ``query``, the factory's ``create``),
so every call goes through one blocking client (http.client, one keep-alive connection); async callers
run it in a worker thread, so a run never blocks the event loop while it waits for the server. Every
answer is validated against the protocol's generated JSON Schema, and every failure names the method and
URL, never the token.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
from typing import Any
from urllib.parse import urlsplit

from redscope_bridge.schema import problems

DEFAULT_TIMEOUT_S = 120.0
MAX_ANSWER_BYTES = 32 * 1024 * 1024


class ProtocolCallError(RuntimeError):
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


class RemoteTargetError(ProtocolCallError):
    """A Target-over-HTTP call failed."""


class JsonClient:
    """Blocking JSON calls to one base URL. One connection, reused (keep-alive), one call at a time.

    *error* is the class raised for every failure (RemoteTargetError for targets, RemoteOptimizerError for
    optimizers); *message* in :meth:`call` names the schema the 2xx answer is validated against.
    """

    def __init__(
        self, url: str, token: str | None, timeout_s: float, error: type[ProtocolCallError] = RemoteTargetError
    ) -> None:
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
        self._error = error

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
                    raise self._error(endpoint, "answered with more than 32 MB (the limit for one answer)")
                if resp.getheader("Connection", "").lower() == "close":
                    self._drop()
                return resp.status, resp.reason, raw, resp.getheader("Retry-After")
            except TimeoutError as exc:
                self._drop()
                raise self._error(endpoint, f"no answer within {conn.timeout:g} s (per-request timeout)") from exc
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                self._drop()
                # A kept-alive connection the server had closed: send once more on a fresh one.
                if reused and attempt == 1:
                    continue
                raise self._error(endpoint, "the connection was dropped before an answer came") from exc
            except OSError as exc:
                self._drop()
                raise self._error(endpoint, f"cannot connect ({exc.strerror or exc})") from exc
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
            raise self._error(endpoint, f"answered {label}: {detail}", status, code, ra)
        if message is None:
            return None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise self._error(endpoint, f"answered {status} with a body that is not JSON") from exc
        bad = problems(message, data)
        if bad:
            raise self._error(endpoint, f"answered {status} with a body that breaks the protocol: {'; '.join(bad[:3])}")
        return data
