"""Errors never kill the server: each fault gets one clear line, on its own session only."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from superred.core.controller import TargetFactory

from redscope_bridge.cli import main
from tests.faulty import Faulty


def call(url: str, method: str, path: str, body: object | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as res:
            raw = res.read()
            return res.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def session(url: str, fault: str = "") -> str:
    status, body = call(url, "POST", "/sessions", {})
    assert status == 201
    sid = str(body["session_id"])
    if fault:
        assert call(url, "POST", f"/sessions/{sid}/config", {"name": "mode", "value": fault})[0] == 204
    return sid


def finish_ok_run(url: str, sid: str) -> dict[str, Any]:
    status, step = call(url, "POST", f"/sessions/{sid}/runs", {})
    assert status == 200, step
    while step["status"] == "paused":
        status, step = call(
            url,
            "POST",
            f"/sessions/{sid}/runs/{step['run_id']}/responses",
            {"call_id": step["pause"]["call_id"], "response": {"type": "ControllableNoInjection"}},
        )
        assert status == 200, step
    return step


def test_faults_in_run_query_and_teardown_stay_with_their_session(serve: Any) -> None:
    server = serve(TargetFactory(create=Faulty, concurrency=4))
    url = server.url
    healthy = session(url)
    failing = session(url, "run")
    status, step = call(url, "POST", f"/sessions/{failing}/runs", {})
    assert status == 200
    assert step["status"] == "failed"
    assert step["error"] == "ZeroDivisionError: division by zero in the target"

    querying = session(url, "query")
    status, body = call(url, "POST", f"/sessions/{querying}/query", {"name": "injections"})
    assert status == 500
    assert body["error"]["code"] == "target_error"
    assert "KeyError" in body["error"]["message"]

    tearing = session(url, "teardown")
    status, body = call(url, "DELETE", f"/sessions/{tearing}")
    assert status == 500
    assert "the sandbox would not stop" in body["error"]["message"]
    assert call(url, "POST", f"/sessions/{tearing}/runs", {})[0] == 404  # gone all the same

    assert finish_ok_run(url, healthy)["status"] == "finished"


def test_a_client_that_vanishes_mid_run_leaves_the_others_running(serve: Any) -> None:
    server = serve(TargetFactory(create=Faulty, concurrency=4))
    url = server.url
    hanging = session(url, "hang")
    _status, step = call(url, "POST", f"/sessions/{hanging}/runs", {})
    assert step["status"] == "paused"
    # The client answers and goes away while the target hangs: its request times out on our side only.
    req = urllib.request.Request(
        f"{url}/sessions/{hanging}/runs/{step['run_id']}/responses",
        method="POST",
        data=json.dumps(
            {"call_id": step["pause"]["call_id"], "response": {"type": "ControllableNoInjection"}}
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(TimeoutError):
        urllib.request.urlopen(req, timeout=0.5)
    other = session(url)
    assert finish_ok_run(url, other)["status"] == "finished"
    assert call(url, "DELETE", f"/sessions/{hanging}")[0] == 204


def test_a_factory_that_raises_fails_that_session_only(serve: Any) -> None:
    made = {"n": 0}

    def create() -> Faulty:
        made["n"] += 1
        if made["n"] == 3:
            raise RuntimeError("out of sandboxes")
        return Faulty()

    server = serve(TargetFactory(create=create, concurrency=4))
    first = session(server.url)
    status, body = call(server.url, "POST", "/sessions", {})
    assert status == 500
    assert body["error"] == {
        "code": "target_error",
        "message": "the target could not be created: RuntimeError: out of sandboxes",
    }
    assert finish_ok_run(server.url, first)["status"] == "finished"
    assert finish_ok_run(server.url, session(server.url))["status"] == "finished"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_x:Thing", "cannot import module 'no_such_module_x': ModuleNotFoundError"),
        ("tests.faulty:Nope", "module 'tests.faulty' has no attribute 'Nope'"),
        ("tests.faulty:broken_factory", "creating the target raised RuntimeError: no GPU for you"),
        ("tests.faulty:not_a_target", "tests.faulty:not_a_target returned int, not a superred Target"),
        ("tests.faulty", "expected MODULE:ATTR"),
    ],
)
def test_start_up_errors_are_one_line_and_exit_2(
    spec: str, message: str, settled_capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", spec, "--port", "0"]) == 2
    err = settled_capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("redscope-bridge: ")
    assert message in err


def test_bad_kwargs_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "redscope_bridge.testing.probe_target:ProbeTarget", "--kwargs", "{nope"]) == 2
    assert "--kwargs: not JSON" in capsys.readouterr().err
    assert main(["serve", "redscope_bridge.testing.probe_target:ProbeTarget", "--kwargs", "[1]"]) == 2
    assert "must be a JSON object" in capsys.readouterr().err
    assert main(["serve", "redscope_bridge.testing.probe_target:ProbeTarget", "--token-env", "UNSET_VAR_X1"]) == 2
    assert "UNSET_VAR_X1" in capsys.readouterr().err
