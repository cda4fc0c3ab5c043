"""superred's own Controller, the baseline of `npm run bench -- goals`.

An in-process target with CONTROLLABLES controllables under one tag; each run
sends one pre-call event per controllable; the optimizer injects; the task
scores every run the same. No persistence, no reporter. Prints one JSON line:
{"runs": N, "events": N, "ms": wall}. The redscope side of the bench runs the
very same shape (bench/goals.bench.ts).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time

from superred.core.controller import Controller, TargetFactory
from superred.core.interfaces.optimizer import Optimizer
from superred.core.interfaces.security_claim import SecurityClaim
from superred.core.interfaces.target import Target
from superred.core.interfaces.task import Task
from superred.core.types.controllable import Controllable
from superred.core.types.evaluation import EvaluationResult, Score
from superred.core.types.events import (
    ControllableInjection, ControllablePostCallEvent, ControllablePreCallEvent, RunEndEvent, RunEndResponse,
)
from superred.core.types.event import EventResponse
from superred.core.types.goal import Goal
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
CONTROLLABLES = int(sys.argv[2]) if len(sys.argv) > 2 else 4

USER = SecurityDomainTag("user")
DOMAIN = SecurityDomain([USER])
SURFACES = [Controllable(name=f"c{i}", security_domain=USER) for i in range(CONTROLLABLES)]


class BenchTarget(Target):
    @property
    def config_specs(self):
        return []

    def set_config(self, name, value):
        pass

    @property
    def query_specs(self):
        return []

    def query(self, name, **params):
        return ""

    @property
    def security_domain(self):
        return DOMAIN

    def get_controllables(self):
        return SURFACES

    def get_observables(self):
        return []

    async def run(self, emit, send_event):
        for c in SURFACES:
            await send_event(ControllablePreCallEvent(controllable=c, request="request"))

    async def reset_ephemeral_state(self):
        pass

    async def teardown(self):
        pass


class EchoOptimizer(Optimizer):
    async def initialize(self, goal, controllables, observables, llm_client):
        await super().initialize(goal, controllables, observables, llm_client)

    async def on_event(self, event):
        if isinstance(event, (ControllablePreCallEvent, ControllablePostCallEvent)):
            return ControllableInjection(event=event, controllable=event.controllable, value="payload")
        if isinstance(event, RunEndEvent):
            return RunEndResponse(event=event, done=False)
        return EventResponse(event=event)


JUDGED = EvaluationResult(success=False, primary_score=Score(value=0.5), rationale="bench")


class BenchTask(Task):
    @property
    def goal(self):
        return Goal(description="bench goal")

    async def configure_target(self, target):
        pass

    async def evaluate(self, trajectory, target):
        return JUDGED


def controller(runs: int) -> Controller:
    return Controller(
        optimizer_factory=EchoOptimizer, target_factory=TargetFactory(create=BenchTarget),
        security_claim=SecurityClaim.from_tasks([BenchTask()]), scope=frozenset({USER}),
        max_runs_per_task=runs, persist=False, report=False,
    )


async def main() -> None:
    logging.disable(logging.CRITICAL)
    await controller(100).run()  # warm-up
    start = time.perf_counter()
    result = await controller(RUNS).run()
    ms = (time.perf_counter() - start) * 1000
    task = result.task_results[0]
    if task.error is not None:
        raise SystemExit(f"the superred bench task failed: {task.error}")
    runs = len(task.runs)
    print(json.dumps({"runs": runs, "events": runs * CONTROLLABLES, "ms": ms}))


asyncio.run(main())
