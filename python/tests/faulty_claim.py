"""Superred claims whose tasks fail on purpose, around the real demo task: each fault must stay on its task."""

from __future__ import annotations

from typing import Any, cast

from demo_secret_leak_claim import DemoSecretLeakTask
from superred.core.interfaces.security_claim import SecurityClaim
from superred.core.interfaces.target import Target
from superred.core.interfaces.task import NotApplicable, Task
from superred.core.types.evaluation import EvaluationResult
from superred.core.types.trajectory import Trajectory


class NeedsAnotherTarget(DemoSecretLeakTask):
    async def configure_target(self, target: Any) -> None:
        raise NotApplicable("this task needs a target with a calendar")


class ConfigureRaises(DemoSecretLeakTask):
    async def configure_target(self, target: Any) -> None:
        raise KeyError("the seed override names no such user")


class EvaluateRaises(DemoSecretLeakTask):
    async def evaluate(self, trajectory: Trajectory, target: Any) -> EvaluationResult:
        raise ValueError("the environment snapshot is malformed")


def faulty_claim() -> SecurityClaim[Target]:
    """Five tasks: the demo task, one that does not apply, one whose configure raises, one whose evaluate
    raises, and the demo task again with another secret (it must still finish after the faults)."""
    tasks = [
        DemoSecretLeakTask(),
        NeedsAnotherTarget(secret="CAL-1"),
        ConfigureRaises(secret="SEED-2"),
        EvaluateRaises(secret="EVAL-3"),
        DemoSecretLeakTask(secret="LION-77"),
    ]
    return SecurityClaim.from_tasks(cast(list[Task[Target]], tasks))


# Secrets that tell the LLM in front of the fake (tests/test_bad_input.py) how to fail: the task configures its
# secret into the system prompt, so every request of that task carries it.
LLM_DOWN_SECRET = "DOWN-2"
LLM_GARBAGE_SECRET = "JUNK-3"


def llm_faults_claim() -> SecurityClaim[Target]:
    """Four demo tasks; for the second the target's LLM is down, for the third it answers garbage."""
    tasks = [
        DemoSecretLeakTask(),
        DemoSecretLeakTask(secret=LLM_DOWN_SECRET),
        DemoSecretLeakTask(secret=LLM_GARBAGE_SECRET),
        DemoSecretLeakTask(secret="LION-77"),
    ]
    return SecurityClaim.from_tasks(cast(list[Task[Target]], tasks))
