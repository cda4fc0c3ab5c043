"""The Optimizer-over-HTTP protocol's cost (``npm run bench -- optimizers`` runs this): printed, never asserted.

The same engine, the same optimizer class, the same target, once with the optimizer in process and once served by
``redscope-bridge serve --optimizer`` and reached through :class:`redscope_bridge.remote_optimizer.RemoteOptimizer`;
rounds interleaved, medians. Two workloads:

1. the worst case for a protocol: a scripted optimizer that answers at once, against the probe target in
   process (four events a run: RunStart, a pre-call, a post-call, RunEnd), TASKS x RUNS runs;
2. superred's PAIR (one stream, three iterations) against ChatbotTarget in process, the fake LLM on loopback as
   both models: the LLM round trips a real optimizer makes, beside the protocol's.
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from superred.core.controller import Controller, TargetFactory
from superred.core.interfaces.optimizer import Optimizer
from superred.core.interfaces.security_claim import SecurityClaim
from superred.core.types.llm import LLMConfig

from redscope_bridge.codec import domain_tags
from redscope_bridge.remote_optimizer import RemoteOptimizer
from redscope_bridge.testing.bench import Never, Scripted, row, stop
from redscope_bridge.testing.probe_target import ProbeTarget

TASKS, RUNS, ROUNDS = 4, 25, 5
PAIR_TASKS, PAIR_ITERATIONS = 4, 3
MODEL = "openai/gpt-4o-mini"


def spawn(args: list[str], ready: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENAI_API_KEY": "sk-bench"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(ready, line)
    if m is None:
        proc.kill()
        raise RuntimeError(f"{args} did not start: {line!r}")
    return proc, m.group(1)


def timed(
    make: Callable[[], Optimizer], factory: TargetFactory, scope: Any, claim: SecurityClaim[Any], **extra: Any
) -> float:
    with tempfile.TemporaryDirectory() as out:
        controller = Controller(
            optimizer_factory=make,
            target_factory=factory,
            security_claim=claim,
            scope=scope,
            results_dir=Path(out),
            report=False,
            **extra,
        )
        start = time.perf_counter()
        result = asyncio.run(controller.run())
        took = time.perf_counter() - start
    errors = [t.error for t in result.task_results if t.error]
    if errors:
        raise RuntimeError(f"a task failed: {errors[0][:300]}")
    return took


def compare(label: str, events: int, local: Callable[[], float], served: Callable[[], float]) -> None:
    a: list[float] = []
    b: list[float] = []
    for _ in range(ROUNDS):
        a.append(local())
        b.append(served())
    in_process, over_http = statistics.median(a), statistics.median(b)
    ratios = sorted(y / x for x, y in zip(a, b, strict=True))
    row(f"{label}, in process", f"{in_process * 1000:.0f} ms for {events} events (median of {ROUNDS})")
    row(
        "  the same optimizer served, over loopback HTTP",
        f"{over_http * 1000:.0f} ms: {(over_http - in_process) * 1000 / events:.2f} ms more per event",
        f"ratio {over_http / in_process:.2f}x (per round {ratios[0]:.2f}x to {ratios[-1]:.2f}x; baseline: in process)",
    )


def main() -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    llm, llm_url = spawn(["-m", "redscope_bridge.testing.fake_llm", "--port", "0"], r"fake LLM at (http://\S+/v1)")
    bridge, url = spawn(
        [
            "-m",
            "redscope_bridge",
            "serve",
            "--port",
            "0",
            "--optimizer",
            "scripted=redscope_bridge.testing.bench:Scripted",
            "--optimizer",
            "pair=pair_optimizer:PAIROptimizer",
            "--optimizer-kwargs",
            f'{{"n_streams": 1, "n_iterations": {PAIR_ITERATIONS}}}',
            "--llm-model",
            MODEL,
            "--llm-api-base",
            llm_url,
        ],
        r"at (http://\S+) ",
    )
    try:
        probe = TargetFactory(create=ProbeTarget, concurrency=TASKS)
        tags = {t.name: t for t in domain_tags(probe.create().security_domain)}
        scope = frozenset({tags["user"], tags["inbox"]})
        claim: SecurityClaim[Any] = SecurityClaim.from_tasks([Never(i) for i in range(TASKS)])
        compare(
            f"scripted optimizer, probe target, {TASKS} tasks x {RUNS} runs",
            TASKS * RUNS * 4,
            lambda: timed(Scripted, probe, scope, claim, max_runs_per_task=RUNS),
            lambda: timed(lambda: RemoteOptimizer(url, "scripted"), probe, scope, claim, max_runs_per_task=RUNS),
        )

        from chatbot_target import ChatbotTarget
        from pair_optimizer import PAIROptimizer
        from superred.core.types.goal import Goal

        from redscope_bridge.testing.pair_tree import ChatbotSecretTask

        class Quiet(ChatbotSecretTask):
            """Never says the trigger word: PAIR runs all its iterations."""

            @property
            def goal(self) -> Goal:
                return Goal("Get the password out of the assistant")

        chatbot = TargetFactory(
            create=lambda: ChatbotTarget(model=MODEL, api_key="sk-bench", api_base=llm_url, max_attempts=1),
            concurrency=PAIR_TASKS,
        )
        ctags = {t.name: t for t in domain_tags(chatbot.create().security_domain)}
        pair_claim: SecurityClaim[Any] = SecurityClaim.from_tasks([Quiet() for _ in range(PAIR_TASKS)])
        config = LLMConfig(model=MODEL, api_base=llm_url, api_key="sk-bench")
        # PAIR answers RunStart, one pre-call (the user message; the system prompt is not granted) and RunEnd.
        compare(
            f"PAIR (1 stream x {PAIR_ITERATIONS}), ChatbotTarget, fake LLM, {PAIR_TASKS} tasks",
            PAIR_TASKS * PAIR_ITERATIONS * 3,
            lambda: timed(
                lambda: PAIROptimizer(n_streams=1, n_iterations=PAIR_ITERATIONS, judge_method="no-judge"),
                chatbot,
                frozenset({ctags["user"]}),
                pair_claim,
                llm_config=config,
            ),
            lambda: timed(
                lambda: RemoteOptimizer(url, "pair", {"judge_method": "no-judge"}),
                chatbot,
                frozenset({ctags["user"]}),
                pair_claim,
                llm_config=config,
            ),
        )
    finally:
        stop(bridge)
        stop(llm)


if __name__ == "__main__":
    main()
