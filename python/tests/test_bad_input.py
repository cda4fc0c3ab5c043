"""Bad input around a served claim: a claim module that cannot be imported stops the bridge at start-up with one
line; an LLM endpoint that is down, or answers garbage, is a clear error on the task, and the bridge goes on; among
several tasks, those whose LLM fails carry the error, the others finish, and a tree written before is untouched."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.typedefs import Handler
from demo_secret_leak_claim import demo_secret_leak_claim

from redscope_bridge.cli import main
from tests.bridge_process import PYTHON_DIR, bridge
from tests.conftest import LoopThread
from tests.cross_engine import read, redscope
from tests.faulty_claim import LLM_DOWN_SECRET, LLM_GARBAGE_SECRET, llm_faults_claim
from tests.test_cross_engine import PROMPTS
from tests.test_served_claim import redscope_served, serve_claim


def test_a_claim_module_that_cannot_be_imported_is_one_line_at_start_up() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "redscope_bridge",
            "serve",
            "redscope_bridge.testing.probe_target:ProbeTarget",
            "--claim",
            "no_such_claim_module:claim",
            "--port",
            "0",
        ],
        cwd=PYTHON_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "", "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "no_such_claim_module" in lines[0]


CLAIM_MODULES = {
    # Importing it fails on a dependency it needs: the line names the claim module and the missing one.
    "claim_needs_dep": "import missing_dependency_of_claim  # noqa: F401\n",
    # Importing it raises: the module's own reason.
    "claim_raises": "raise RuntimeError('set AGENTDOJO_SUITE before importing this claim')\n",
    "claim_odd": "claim = 42\n\ndef make(**kwargs):\n    raise ValueError('no such suite: ' + repr(kwargs))\n",
}


@pytest.mark.parametrize(
    ("spec", "kwargs", "message"),
    [
        ("claim_needs_dep:claim", None,
         "--claim claim_needs_dep:claim: cannot import module 'claim_needs_dep': ModuleNotFoundError: "
         "No module named 'missing_dependency_of_claim'"),
        ("claim_raises:claim", None,
         "--claim claim_raises:claim: cannot import module 'claim_raises': RuntimeError: "
         "set AGENTDOJO_SUITE before importing this claim"),
        ("claim_odd:nope", None, "--claim claim_odd:nope: module 'claim_odd' has no attribute 'nope'"),
        ("claim_odd:claim", None, "--claim claim_odd:claim: int, not a superred SecurityClaim"),
        ("claim_odd:make", '{"suite": "bankin"}',
         "--claim claim_odd:make: claim_odd:make(**claim_kwargs) raised ValueError: "
         "no such suite: {'suite': 'bankin'}"),
        ("claim_odd", None,
         "--claim claim_odd: 'claim_odd': expected MODULE:ATTR (e.g. demo_secret_leak_claim:demo_secret_leak_claim)"),
    ],
)  # fmt: skip
def test_a_claim_that_cannot_be_loaded_is_one_line_naming_the_claim_and_why(
    spec: str, kwargs: str | None, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    for name, text in CLAIM_MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.chdir(tmp_path)  # the bridge finds modules in the current directory, as `serve` does
    monkeypatch.setattr(sys, "path", ["", *sys.path])
    for name in CLAIM_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    extra = ["--claim-kwargs", kwargs] if kwargs else []
    target = "redscope_bridge.testing.probe_target:ProbeTarget"
    assert main(["serve", target, "--claim", spec, *extra, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == f"redscope-bridge: {message}\n"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_chat_completions(loop_thread: LoopThread, handler: Handler) -> Iterator[str]:
    """An OpenAI-compatible base URL on loopback whose chat completions `handler` answers, for a fixture's
    lifetime (stopped when the fixture ends)."""

    async def go() -> tuple[web.AppRunner, int]:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", handler)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    runner, port = loop_thread.run(go())
    yield f"http://127.0.0.1:{port}/v1"
    loop_thread.run(runner.cleanup())


@pytest.fixture
def garbage_llm(loop_thread: LoopThread) -> Iterator[str]:
    async def nonsense(_request: web.Request) -> web.Response:
        return web.Response(text="<html>upstream exploded</html>", content_type="text/html")

    yield from serve_chat_completions(loop_thread, nonsense)


@pytest.mark.parametrize("which", ["down", "garbage"])
def test_an_llm_endpoint_down_or_answering_garbage_is_an_error_on_the_task(
    which: str, garbage_llm: str, tmp_path: Path
) -> None:
    llm = f"http://127.0.0.1:{closed_port()}/v1" if which == "down" else garbage_llm
    kwargs = json.dumps({"model": "openai/gpt-4o-mini", "api_base": llm, "api_key": "sk-fake"})
    with bridge(
        "minimal_llm_chat:MinimalLLMChatTarget",
        "--kwargs",
        kwargs,
        "--claim",
        "demo_secret_leak_claim:demo_secret_leak_claim",
    ) as url:
        out = tmp_path / "out"
        done = redscope(
            "run", "--target", url, "--scope", "user_input", "--template", "hi {goal}", "--out", str(out), cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr + done.stdout
        # The bridge is still there for the next client.
        import urllib.request

        with urllib.request.urlopen(f"{url}/manifest", timeout=30) as r:  # loopback
            assert json.loads(r.read())["claim"]["tasks"]
    [exp] = [d for d in out.iterdir() if d.is_dir()]
    [row] = read(exp / "manifest.json")["tasks"]
    assert row["stop_reason"] == "error"
    [task_dir] = list((exp / "tasks").iterdir())
    error = read(task_dir / "task.json")["error"]
    assert "the target's run failed" in error, error


@pytest.fixture
def flaky_llm(loop_thread: LoopThread, fake_llm_url: str) -> Iterator[str]:
    """The fake LLM behind a front that fails per task: a request carrying LLM_DOWN_SECRET has its connection
    dropped unanswered (the endpoint is down for that task), one carrying LLM_GARBAGE_SECRET gets an HTML page
    (garbage), the rest are passed through to the fake."""
    import aiohttp

    async def front(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        if LLM_DOWN_SECRET.encode() in body:
            assert request.transport is not None
            request.transport.abort()
            return web.Response(status=503)  # never reaches the client: the connection is gone
        if LLM_GARBAGE_SECRET.encode() in body:
            return web.Response(text="<html>upstream exploded</html>", content_type="text/html")
        headers = {"Content-Type": "application/json"}
        async with (
            aiohttp.ClientSession() as client,
            client.post(f"{fake_llm_url}/chat/completions", data=body, headers=headers) as r,
        ):
            return web.Response(body=await r.read(), status=r.status, content_type="application/json")

    yield from serve_chat_completions(loop_thread, front)


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_an_llm_down_or_garbage_for_some_tasks_fails_those_only_and_keeps_what_was_written(
    serve: Any, fake_llm_url: str, flaky_llm: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    # A results tree already written: an earlier experiment (the demo claim, the LLM healthy) in the same folder.
    earlier, _ = redscope_served(serve_claim(serve, fake_llm_url, demo_secret_leak_claim()).url, out)
    before = files_of(earlier)
    assert read(earlier / "manifest.json")["status"] == "complete"

    server = serve_claim(serve, flaky_llm, llm_faults_claim())
    done = redscope(
        "run", "--target", server.url, "--scope", "user_input", "--out", str(out), "--claim-label", "llm-faults",
        *[a for p in PROMPTS for a in ("--template", p)], cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    [exp] = [d for d in out.iterdir() if d.is_dir() and d != earlier]

    # The two healthy tasks finished, their runs written; the two failed ones carry their own error.
    tasks = {t["index"]: t for t in read(exp / "manifest.json")["tasks"]}
    assert [(tasks[i]["success"], tasks[i]["stop_reason"], tasks[i]["has_error"]) for i in (1, 4)] == [
        (True, "success", False)
    ] * 2
    assert [(tasks[i]["stop_reason"], tasks[i]["has_error"]) for i in (2, 3)] == [("error", True)] * 2
    for i in (1, 4):
        task_dir = exp / tasks[i]["dir"]
        assert read(task_dir / "task.json")["best_evaluation"]["success"] is True
        runs = read(task_dir / "iterations.json")["runs"]
        assert runs
        assert all((task_dir / r["trajectory"]).is_file() for r in runs)
    for i, secret in ((2, LLM_DOWN_SECRET), (3, LLM_GARBAGE_SECRET)):
        task = read(exp / tasks[i]["dir"] / "task.json")
        assert secret in task["goal"]  # the error sits on the task whose LLM failed, named by its goal
        assert "the target's run failed" in task["error"], task["error"]
    down = read(exp / tasks[2]["dir"] / "task.json")["error"]
    garbage = read(exp / tasks[3]["dir"] / "task.json")["error"]
    assert "Connection" in down or "connection" in down, down
    assert down != garbage
    # The run's own report names each failed task with its error line.
    lines = done.stdout.splitlines()
    for i in (2, 3):
        [at] = [n for n, line in enumerate(lines) if line.startswith(f"task {i}/4")]
        assert "error" in lines[at], lines[at]
        assert lines[at + 1].startswith("    error: "), lines[at : at + 2]

    # Nothing written before was lost or changed: the earlier experiment is byte for byte what it was, and listed.
    assert files_of(earlier) == before
    listed = {e["dir"] for e in read(out / "experiments.json")["experiments"]}
    assert listed == {earlier.name, exp.name}
