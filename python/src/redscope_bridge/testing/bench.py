"""The bridge's figures (``npm run bench -- bridge`` runs this): printed, never asserted.

1. Protocol overhead: the same workload (superred's Controller, the probe target, a scripted optimizer,
   TASKS tasks x RUNS runs) with the target in process, then behind ``redscope-bridge serve`` through
   RemoteTarget. The ratio is what the protocol costs per run.
2. Sessions at once: a bridge with ``--concurrency N`` holds N sessions, each with a run paused at a
   pause, and answers the N+1st with 503 capacity; how long opening them took and the server's memory.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from superred.core.controller import Controller, TargetFactory
from superred.core.interfaces.optimizer import Optimizer
from superred.core.interfaces.security_claim import SecurityClaim
from superred.core.interfaces.task import Task
from superred.core.llm import LLMClient
from superred.core.types.evaluation import EvaluationResult, Score
from superred.core.types.event import Event, EventResponse
from superred.core.types.events import (
    ControllableInjection,
    ControllableNoInjection,
    ControllablePostCallEvent,
    ControllablePreCallEvent,
    RunEndEvent,
    RunEndResponse,
)
from superred.core.types.goal import Goal

from redscope_bridge.remote_target import remote_target_factory
from redscope_bridge.testing.probe_target import ProbeTarget

TASKS, RUNS, ROUNDS = 4, 25, 5


class Scripted(Optimizer):
    async def initialize(self, goal: Any, controllables: Any, observables: Any, llm_client: LLMClient) -> None:
        await super().initialize(goal, controllables, observables, llm_client)

    async def on_event(self, event: Event) -> EventResponse:
        if isinstance(event, ControllablePreCallEvent):
            return ControllableInjection(event=event, controllable=event.controllable, value="payload")
        if isinstance(event, ControllablePostCallEvent):
            return ControllableNoInjection(event=event, controllable=event.controllable)
        if isinstance(event, RunEndEvent):
            return RunEndResponse(event=event, done=False)
        return EventResponse(event=event)


class Never(Task[Any]):
    def __init__(self, i: int) -> None:
        self._goal = Goal(f"bench task {i}")

    @property
    def goal(self) -> Goal:
        return self._goal

    async def configure_target(self, target: Any) -> None:
        target.set_config("mode", "ok")

    async def evaluate(self, trajectory: Any, target: Any) -> EvaluationResult:
        target.query("injections")
        return EvaluationResult(success=False, primary_score=Score(0.0))


def workload(factory: TargetFactory, scope: Any, out: str) -> float:
    claim: SecurityClaim[Any] = SecurityClaim.from_tasks([Never(i) for i in range(TASKS)])
    controller = Controller(
        optimizer_factory=Scripted,
        target_factory=factory,
        security_claim=claim,
        scope=scope,
        max_runs_per_task=RUNS,
        results_dir=out,
        report=False,
    )
    start = time.perf_counter()
    asyncio.run(controller.run())
    return time.perf_counter() - start


def spawn(concurrency: int) -> tuple[subprocess.Popen[str], str]:
    bridge = Path(sys.executable).with_name("redscope-bridge")
    proc = subprocess.Popen(
        [
            str(bridge),
            "serve",
            "redscope_bridge.testing.probe_target:ProbeTarget",
            "--port",
            "0",
            "--concurrency",
            str(concurrency),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"at (http://\S+) ", line)
    if m is None:
        proc.kill()
        raise RuntimeError(f"the bridge did not start: {line!r}")
    return proc, m.group(1)


def post(url: str, path: str) -> tuple[int, Any]:
    req = urllib.request.Request(url + path, data=b"{}", method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def row(label: str, *cells: str) -> None:
    print(f"{label:<48} {'  '.join(cells)}", flush=True)


def stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM, then SIGKILL: a server tearing down hundreds of paused sessions on a loaded machine may be slow,
    and the bench must never leave it running."""
    proc.terminate()
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def main() -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    runs = TASKS * RUNS
    with tempfile.TemporaryDirectory() as tmp:
        probe_factory = TargetFactory(create=ProbeTarget, concurrency=TASKS)
        from redscope_bridge.testing.probe_target import USER

        # Interleaved rounds, medians: one pair alone swung from 1.3x to 12x on a loaded 2-core machine.
        proc, url = spawn(TASKS)
        try:
            remote = remote_target_factory(url)
            local_s: list[float] = []
            bridged_s: list[float] = []
            for r in range(ROUNDS):
                local_s.append(workload(probe_factory, frozenset({USER}), f"{tmp}/a{r}"))
                bridged_s.append(workload(remote, remote.scope("user"), f"{tmp}/b{r}"))
        finally:
            stop(proc)
    in_process, bridged = statistics.median(local_s), statistics.median(bridged_s)
    ratios = sorted(b / a for a, b in zip(local_s, bridged_s, strict=True))
    row(
        f"superred Controller, {TASKS} tasks x {RUNS} runs, in process",
        f"{in_process * 1000 / runs:.2f} ms/run (median of {ROUNDS})",
    )
    row(
        "the same through redscope-bridge + RemoteTarget",
        f"{bridged * 1000 / runs:.2f} ms/run",
        f"ratio {bridged / in_process:.1f}x (per round {ratios[0]:.1f}x to {ratios[-1]:.1f}x; baseline: in process)",
    )

    n = 500
    proc, url = spawn(n)
    try:
        base = rss_mb(proc.pid)
        start = time.perf_counter()
        opened = 0
        while True:
            status, body = post(url, "/sessions")
            if status != 201:
                break
            opened += 1
            run_status, step = post(url, f"/sessions/{body['session_id']}/runs")
            if run_status != 200 or step["status"] != "paused":
                raise RuntimeError(f"a run did not pause: {run_status} {step}")
        took = time.perf_counter() - start
        row(
            f"sessions at once (--concurrency {n}), each paused",
            f"{opened} served, then {status} {body['error']['code']}",
            f"{took * 1000 / max(opened, 1):.1f} ms per session+run",
            f"server RSS {base:.0f} -> {rss_mb(proc.pid):.0f} MB",
        )
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
