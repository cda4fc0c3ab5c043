"""Bad input around a served claim: a claim module that cannot be imported stops the bridge at start-up with one
line; an LLM endpoint that is down, or answers garbage, is a clear error on the task, and the bridge goes on."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.bridge_process import PYTHON_DIR, bridge
from tests.conftest import LoopThread
from tests.cross_engine import read, redscope


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


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def garbage_llm(loop_thread: LoopThread) -> Iterator[str]:
    async def nonsense(_request: web.Request) -> web.Response:
        return web.Response(text="<html>upstream exploded</html>", content_type="text/html")

    async def go() -> tuple[web.AppRunner, int]:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", nonsense)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    runner, port = loop_thread.run(go())
    yield f"http://127.0.0.1:{port}/v1"
    loop_thread.run(runner.cleanup())


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
