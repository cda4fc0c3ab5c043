"""A superred claim served beside its target, so redscope's Controller judges runs with the real claim.

``redscope-bridge serve TARGET --claim MODULE:ATTR`` wraps every session's target: config
``superred_task`` = i runs task i's ``configure_target`` on it, and query ``superred_evaluation``
answers that task's ``evaluate`` of the last run (as EvaluationResult JSON, which redscope's
``query_evaluation`` evaluator reads). The trajectory it evaluates is recorded on the server exactly
as superred's Controller records it in process: every emitted event, every pause and its answer.
``redscope-bridge claim-file`` prints the matching redscope claim file.

The protocol's own way (an addition, docs/target-protocol.md): the manifest lists the claim's tasks
(``claim``), ``POST /sessions/{sid}/task`` runs a task's ``configure_target`` (NotApplicable: 422
``not_applicable``, so the client skips the task as superred does), and every finished run of that
session is evaluated here by the task's own ``evaluate``, its EvaluationResult carried by the RunStep.
"""

from __future__ import annotations

import inspect
from typing import Any

from superred.core.interfaces.security_claim import SecurityClaim
from superred.core.interfaces.target import Target
from superred.core.interfaces.task import NotApplicable, Task
from superred.core.types.controllable import Controllable
from superred.core.types.evaluation import EvaluationResult, Score
from superred.core.types.event import Event, EventHandler, EventResponse, EventResponseHandler
from superred.core.types.observable import ObservableValue
from superred.core.types.security_domain import SecurityDomain
from superred.core.types.state import ConfigSpec, QuerySpec
from superred.core.types.trajectory import Trajectory

from redscope_bridge.loader import StartupError, resolve
from redscope_bridge.wire import ManifestClaim

TASK_CONFIG = "superred_task"
EVALUATION_QUERY = "superred_evaluation"


def load_claim(spec: str, kwargs: dict[str, Any]) -> list[Task[Any]]:
    """``MODULE:ATTR``: a SecurityClaim, or a callable returning one (with *kwargs*). Every failure is one line
    that starts with ``--claim SPEC:``, so it is never mistaken for the target's (the same module errors read alike)."""
    try:
        obj = resolve(spec, example="demo_secret_leak_claim:demo_secret_leak_claim")
    except StartupError as exc:
        raise StartupError(f"--claim {spec}: {exc}") from exc
    if not isinstance(obj, SecurityClaim) and callable(obj):
        try:
            obj = obj(**kwargs)
        except Exception as exc:
            raise StartupError(f"--claim {spec}: {spec}(**claim_kwargs) raised {type(exc).__name__}: {exc}") from exc
    elif kwargs:
        raise StartupError(f"--claim {spec}: a SecurityClaim, it takes no --claim-kwargs")
    if not isinstance(obj, SecurityClaim):
        raise StartupError(f"--claim {spec}: {type(obj).__name__}, not a superred SecurityClaim")
    return list(obj)


def score_json(s: Score) -> dict[str, Any]:
    return {"name": s.name, "value": s.value, "security_domain": s.security_domain.name if s.security_domain else None}


def evaluation_json(e: EvaluationResult) -> dict[str, Any]:
    return {
        "success": e.success,
        "primary_score": score_json(e.primary_score),
        "sub_scores": {k: score_json(v) for k, v in e.sub_scores.items()},
        "rationale": e.rationale,
    }


def claim_file(tasks: list[Task[Any]], name: str, spec: str) -> dict[str, Any]:
    """The redscope claim file whose tasks are judged on the bridge by the served claim."""
    return {
        "name": name,
        "description": f"superred claim {spec}, configured and evaluated on the bridge (redscope-bridge serve --claim)",
        "tasks": [
            {
                "goal": t.goal.description,
                "config": {TASK_CONFIG: str(i)},
                "evaluator": {"type": "query_evaluation", "query": EVALUATION_QUERY},
            }
            for i, t in enumerate(tasks, start=1)
        ],
    }


def manifest_claim(tasks: list[Task[Any]], name: str, spec: str) -> ManifestClaim:
    """The manifest's ``claim``: the tasks in claim order (numbered from 1 by the protocol), and the config and
    query that older claim files reach it by, so that clients do not show them as the target's own."""
    return {
        "name": name,
        "description": f"superred claim {spec}, configured and evaluated on the bridge",
        "tasks": [{"goal": t.goal.description} for t in tasks],
        "hooks": {"config": TASK_CONFIG, "query": EVALUATION_QUERY},
    }


# Names that say only "a claim" (``demo_chatbot_claim:claim``): the module says which one.
GENERIC_ATTRS = frozenset({"claim", "security_claim", "make", "create", "build", "factory", "get_claim", "make_claim"})


def claim_label(spec: str) -> str:
    """A served claim's default label: the factory or object ``MODULE:ATTR`` names, or the module's own name when
    ATTR is a generic word such as ``claim`` (results and reports would otherwise all read "claim")."""
    module, _, attr = spec.partition(":")
    last = attr.split(".")[-1]
    return module.split(".")[-1] if last.lower() in GENERIC_ATTRS else last


class ClaimHostedTarget(Target):
    """The served target plus the claim's two hooks; everything else is the target's own."""

    def __init__(self, inner: Target, tasks: list[Task[Any]]) -> None:
        self.inner = inner
        self._tasks = tasks
        self._task: Task[Any] | None = None
        self._trajectory: Trajectory | None = None
        # Set by POST /sessions/{sid}/task: every finished run is then evaluated by the server.
        self.evaluates_runs = False

    @property
    def n_tasks(self) -> int:
        return len(self._tasks)

    async def select_task(self, index: int) -> None:
        """Task *index* (1-based) configures the target. NotApplicable and the task's own errors propagate."""
        task = self._tasks[index - 1]
        await task.configure_target(self.inner)
        self._task = task
        self.evaluates_runs = True

    async def evaluate_last(self) -> dict[str, Any]:
        """The configured task's ``evaluate`` of the run that just ended, as EvaluationResult JSON."""
        if self._task is None or self._trajectory is None:
            raise RuntimeError("no task configured or no run to evaluate")
        return evaluation_json(await self._task.evaluate(self._trajectory, self.inner))

    @property
    def config_specs(self) -> list[ConfigSpec]:
        n = len(self._tasks)
        spec = ConfigSpec(TASK_CONFIG, None, f"1-based task of the served claim (1..{n}): runs its configure_target")  # type: ignore[arg-type]
        return [*self.inner.config_specs, spec]

    def set_config(self, name: str, value: str) -> None:
        if name == TASK_CONFIG:
            raise RuntimeError(f"{TASK_CONFIG} is asynchronous: the session calls aset_config")
        self.inner.set_config(name, value)

    async def aset_config(self, name: str, value: str) -> None:
        if name != TASK_CONFIG:
            self.inner.set_config(name, value)
            return
        if not value.strip().isdigit() or not 1 <= int(value) <= len(self._tasks):
            raise ValueError(f"must be a task number from 1 to {len(self._tasks)} (got '{value}')")
        task = self._tasks[int(value) - 1]
        try:
            await task.configure_target(self.inner)
        except NotApplicable as exc:
            raise ValueError(f"NotApplicable: task {value} does not apply to this target ({exc})") from exc
        self._task = task

    @property
    def query_specs(self) -> list[QuerySpec]:
        return [
            *self.inner.query_specs,
            QuerySpec(EVALUATION_QUERY, "the served claim's evaluate() of the last run, as JSON"),
        ]

    def query(self, name: str, **params: str) -> str:
        return self.inner.query(name, **params)

    async def aquery(self, name: str, **params: str) -> str:
        if name != EVALUATION_QUERY:
            return self.inner.query(name, **params)
        if self._task is None:
            raise RuntimeError(f"no task configured: set config {TASK_CONFIG} first")
        if self._trajectory is None:
            raise RuntimeError("no run to evaluate yet")
        import json

        return json.dumps(evaluation_json(await self._task.evaluate(self._trajectory, self.inner)))

    @property
    def security_domain(self) -> SecurityDomain:
        return self.inner.security_domain

    def get_controllables(self) -> list[Controllable]:
        return self.inner.get_controllables()

    def get_observables(self) -> list[ObservableValue]:
        return self.inner.get_observables()

    async def run(self, emit: EventHandler, send_event: EventResponseHandler) -> None:
        trajectory = Trajectory()
        self._trajectory = trajectory

        def record(item: Event) -> None:
            trajectory.emit(item)  # raises as superred's own trajectory would, before anything is sent
            emit(item)

        async def recording(event: Event) -> EventResponse:
            trajectory.emit(event)
            response = await send_event(event)
            trajectory.emit(response)
            return response

        await self.inner.run(record, recording)

    async def reset_ephemeral_state(self) -> None:
        await self.inner.reset_ephemeral_state()

    async def teardown(self) -> None:
        await self.inner.teardown()


def is_async_hook(target: Target, name: str) -> bool:
    return inspect.iscoroutinefunction(getattr(target, name, None))
