"""The bridge as an attacker or an unlucky user meets it: its keys never leave it, it listens on loopback unless a
token guards it, a malformed request is one line in its log, and guessing its token runs at a try a second
(issue 32, points 2, 8, 11 and 12)."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import pytest
from superred.core.controller import TargetFactory

from redscope_bridge.cli import main
from redscope_bridge.errors import ProtocolError
from redscope_bridge.guard import WrongTokens
from redscope_bridge.testing.probe_target import ProbeTarget
from tests.bridge_process import bridge_logged
from tests.faulty import LEAKY_ENV
from tests.test_faults import call, session

KWARGS_KEY = "sk-bridge-KWARGS-KEY-7c41e9d2"
ENV_KEY = "tok-bridge-ENV-TOKEN-3b8a5f60"


def test_the_bridge_masks_the_keys_it_holds_in_every_answer_and_log_line() -> None:
    kwargs = json.dumps({"api_key": KWARGS_KEY, "model": "gpt-4o-mini"})
    with bridge_logged("tests.faulty:Leaky", "--kwargs", kwargs, env={LEAKY_ENV: ENV_KEY}) as (url, log):
        # A run whose LLM answered 401 quoting the key, as OpenAI's "Incorrect API key provided" does.
        sid = session(url, "run")
        status, step = call(url, "POST", f"/sessions/{sid}/runs", {})
        assert status == 200
        assert step["status"] == "failed"
        assert step["error"] == "PermissionError: Error code: 401 - Incorrect API key provided: [redacted]. Check it."
        # What the target observed of its environment's key: masked too, the rest kept.
        assert step["events"][0]["content"] == "gpt-4o-mini with [redacted]"
        # A config error quoting the key (a target's own message) is an answer too.
        status, body = call(url, "POST", f"/sessions/{sid}/config", {"name": "mode", "value": KWARGS_KEY})
        assert KWARGS_KEY not in json.dumps(body)
        call(url, "DELETE", f"/sessions/{sid}")
        time.sleep(0.2)
        text = log()
        assert "POST /sessions" in text
    for secret in (KWARGS_KEY, ENV_KEY):
        assert secret not in json.dumps(step)
        assert secret not in text


def test_a_start_up_failure_quoting_a_key_is_masked(capsys: pytest.CaptureFixture[str]) -> None:
    kwargs = json.dumps({"api_key": KWARGS_KEY, "fail": True})
    assert main(["serve", "tests.faulty:login_factory", "--kwargs", kwargs, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "Incorrect API key provided: [redacted]" in err
    assert KWARGS_KEY not in err


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_it_will_not_listen_beyond_loopback_without_a_token(
    host: str, settled_capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "redscope_bridge.testing.probe_target:ProbeTarget", "--host", host, "--port", "0"]) == 2
    err = settled_capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"--host {host} listens beyond this machine: give a token (--token-env VAR)" in err


def test_a_malformed_request_is_one_line_in_the_log() -> None:
    probes = [
        b"GARBAGE LINE\r\n\r\n",
        b"GET /\x01 HTTP/1.1\r\nHost: localhost\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n",
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(40),  # a TLS hello on a plain port
    ]
    with bridge_logged("redscope_bridge.testing.probe_target:ProbeTarget") as (url, log):
        address = urlsplit(url)
        for payload in probes:
            with socket.create_connection((address.hostname, address.port), timeout=10) as s:
                s.sendall(payload)
                assert s.recv(100).startswith(b"HTTP/1.")
        time.sleep(0.3)
        lines = [line for line in log().splitlines() if line.strip()]
    assert "Traceback" not in "\n".join(lines)
    errors = [line for line in lines if "Error handling request" in line]
    assert len(errors) == 2, lines  # aiohttp logs the other two at debug level only
    assert any("Invalid character in Content-Length" in line for line in errors)
    assert all(line.startswith("aiohttp.server: ") for line in errors)


def test_wrong_tokens_ten_then_429_with_retry_after(serve: Any) -> None:
    server = serve(TargetFactory(create=ProbeTarget, concurrency=1), token="right-token-1234")

    def get(auth: str | None) -> tuple[int, dict[str, str], Any]:
        req = urllib.request.Request(server.url + "/manifest", headers={"Authorization": auth} if auth else {})
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return res.status, dict(res.headers), json.loads(res.read())
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), json.loads(err.read())

    assert [get(None)[0] for _ in range(12)] == [401] * 12
    assert [get(f"Bearer guess-{i}")[0] for i in range(10)] == [401] * 10
    status, headers, body = get("Bearer guess-10")
    assert (status, body["error"]["code"], headers["Retry-After"]) == (429, "too_many_attempts", "1")
    assert get("Bearer right-token-1234")[0] == 429


def test_the_bucket_refills_one_try_a_second() -> None:
    now = [0.0]
    limiter = WrongTokens(now=lambda: now[0])
    for _ in range(10):
        limiter.check("a")
        limiter.failed("a")
    with pytest.raises(ProtocolError) as refused:
        limiter.check("a")
    assert refused.value.headers == {"Retry-After": "1"}
    limiter.check("b")
    now[0] += 1.0
    limiter.check("a")


@pytest.mark.parametrize("depth", [980, 5_000, 400_000])
def test_json_nested_deeply_is_400_not_500(serve: Any, depth: int) -> None:
    """Point 7: ~980 levels (under 2 KB) made json.loads raise RecursionError, answered 500; depth is bounded first."""
    server = serve(TargetFactory(create=ProbeTarget, concurrency=1))
    sid = session(server.url)
    nested = b'{"name": "mode", "value": ' + b"[" * depth + b"]" * depth + b"}"
    req = urllib.request.Request(
        f"{server.url}/sessions/{sid}/config", data=nested, method="POST", headers={"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=20)
    body = json.loads(refused.value.read())
    assert (refused.value.code, body["error"]["code"]) == (400, "bad_request")
    assert "nested" in body["error"]["message"]
    # The server still answers, the session too.
    assert call(server.url, "GET", "/manifest")[0] == 200
    assert call(server.url, "DELETE", f"/sessions/{sid}")[0] == 204
