"""The protocols' messages as TypedDicts, for the type checker.

The JSON Schemas generated from redscope's zod schemas (``protocol.schema.json``,
``optimizer_protocol.schema.json``) are what every message is validated against at run time; these types
say the same for mypy. Keys a sender may leave out (the schema's defaults) are ``NotRequired``.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

# -- Shared ------------------------------------------------------------------------------------------------


class ScoreWire(TypedDict):
    name: NotRequired[str]
    value: float
    security_domain: NotRequired[str | None]


class EvaluationWire(TypedDict):
    success: bool
    primary_score: ScoreWire
    sub_scores: NotRequired[dict[str, ScoreWire]]
    rationale: NotRequired[str]


class ManifestTag(TypedDict):
    name: str
    parent: NotRequired[str | None]
    description: NotRequired[str]


class ErrorDetail(TypedDict):
    code: str
    message: NotRequired[str]


class ErrorBody(TypedDict):
    error: ErrorDetail


# -- Target-over-HTTP (docs/target-protocol.md) ------------------------------------------------------------


class ControllableSpec(TypedDict):
    name: str
    security_domain: str
    description: NotRequired[str]
    value_type: NotRequired[str]


class ObservableSpec(TypedDict):
    name: str
    security_domain: str | None
    description: NotRequired[str]
    observable_type: NotRequired[str]


class ManifestObservable(TypedDict):
    name: str
    security_domain: str
    description: NotRequired[str]
    observable_type: NotRequired[str]
    content: NotRequired[Any]


class ConfigSpecWire(TypedDict):
    name: str
    security_domain: NotRequired[str | None]
    description: NotRequired[str]


class QueryParamWire(TypedDict):
    name: str
    description: NotRequired[str]


class QuerySpecWire(TypedDict):
    name: str
    description: NotRequired[str]
    params: NotRequired[list[QueryParamWire]]


class ManifestClaimTask(TypedDict):
    goal: str


class ManifestClaimHooks(TypedDict):
    config: NotRequired[str]
    query: NotRequired[str]


class ManifestClaim(TypedDict):
    name: str
    description: NotRequired[str]
    tasks: list[ManifestClaimTask]
    hooks: NotRequired[ManifestClaimHooks]


class Manifest(TypedDict):
    protocol: str
    name: str
    description: NotRequired[str]
    security_domain: list[ManifestTag]
    controllables: list[ControllableSpec]
    observables: list[ManifestObservable]
    config_specs: NotRequired[list[ConfigSpecWire]]
    query_specs: NotRequired[list[QuerySpecWire]]
    concurrency: NotRequired[int]
    claim: NotRequired[ManifestClaim | None]


class ObservableEventWire(TypedDict):
    type: Literal["ObservableEvent"]
    observable: ObservableSpec
    content: NotRequired[Any]
    security_domain: NotRequired[str | None]
    event_id: NotRequired[str]
    timestamp: NotRequired[str]


class PauseDescriptor(TypedDict):
    security_domain: str
    description: NotRequired[str]
    value_type: NotRequired[str]


class Pause(TypedDict):
    call_id: str
    type: Literal["ControllablePreCallEvent", "ControllablePostCallEvent"]
    controllable: str
    request: str
    answer: NotRequired[str]
    descriptor: NotRequired[PauseDescriptor]
    event_id: NotRequired[str]
    timestamp: NotRequired[str]


class RunStep(TypedDict):
    run_id: str
    events: NotRequired[list[ObservableEventWire]]
    status: Literal["paused", "finished", "failed"]
    pause: NotRequired[Pause | None]
    error: NotRequired[str | None]
    evaluation: NotRequired[EvaluationWire | None]
    evaluation_error: NotRequired[str | None]


class WireResponse(TypedDict):
    type: Literal["ControllableInjection", "ControllableNoInjection"]
    value: NotRequired[str]
    declined_by: NotRequired[Literal["scope", "optimizer"]]


class ResponseBody(TypedDict):
    call_id: str
    response: WireResponse


class SessionCreated(TypedDict):
    session_id: str


class SessionObservables(TypedDict):
    observables: list[ManifestObservable]


class QueryAnswer(TypedDict):
    value: str


# -- Optimizer-over-HTTP (docs/optimizer-protocol.md) ------------------------------------------------------


class UsageWire(TypedDict):
    calls: int
    cost: float


class LlmCallWire(TypedDict):
    reply: str | None
    prompt_tokens: NotRequired[int]
    completion_tokens: NotRequired[int]


class ServedLlm(TypedDict):
    model: str


class ServedOptimizerWire(TypedDict):
    name: str
    ref: NotRequired[str]
    description: NotRequired[str]
    version: NotRequired[str | None]
    kwargs_schema: dict[str, Any]
    kwargs: NotRequired[dict[str, Any]]
    llm: NotRequired[ServedLlm | None]


class OptimizerManifest(TypedDict):
    protocol: str
    optimizers: list[ServedOptimizerWire]
    concurrency: NotRequired[int]


class ControllableWire(TypedDict):
    name: str
    security_domain: str
    description: NotRequired[str]
    value_type: NotRequired[str]


class ObservableWire(TypedDict):
    name: str
    security_domain: str
    description: NotRequired[str]
    observable_type: NotRequired[str]


class OfferedObservable(ObservableWire):
    content: NotRequired[Any]


class ObservableItem(TypedDict):
    type: Literal["ObservableEvent"]
    event_id: str
    timestamp: str
    security_domain: str
    observable: ObservableWire
    content: NotRequired[Any]


class ControllableItem(TypedDict):
    """A pre-call (no ``answer``) or post-call event, on the view or as the event to answer."""

    type: Literal["ControllablePreCallEvent", "ControllablePostCallEvent"]
    event_id: str
    timestamp: str
    security_domain: str
    controllable: ControllableWire
    request: str
    answer: NotRequired[str]


class RunEndItem(TypedDict):
    type: Literal["RunEndEvent"]
    event_id: str
    timestamp: str
    security_domain: str
    evaluation: EvaluationWire | None


class RunStartWire(TypedDict):
    type: Literal["RunStartEvent"]
    event_id: str
    timestamp: str


class ResponseItem(TypedDict):
    """A controllable response on the view, naming the event it answered."""

    type: Literal["ControllableInjection", "ControllableNoInjection"]
    event_id: str
    value: NotRequired[str]
    declined_by: NotRequired[Literal["scope", "optimizer"]]


TrajectoryItemWire = ObservableItem | ControllableItem | RunEndItem | ResponseItem
OptimizerEventWire = RunStartWire | ControllableItem | RunEndItem


class OpenSessionBody(TypedDict):
    optimizer: str
    kwargs: NotRequired[dict[str, Any]]
    goal: dict[str, str]
    security_domain: list[ManifestTag]
    controllables: list[ControllableWire]
    observables: list[OfferedObservable]
    task_cost_cap_usd: NotRequired[float | None]


class EventBody(TypedDict):
    security_domain: NotRequired[list[ManifestTag]]
    event: OptimizerEventWire
    trajectory: NotRequired[list[TrajectoryItemWire]]


class AnswerResponse(TypedDict):
    type: Literal["EventResponse", "ControllableInjection", "ControllableNoInjection", "RunEndResponse"]
    value: NotRequired[str]
    done: NotRequired[bool]


class SessionOpened(TypedDict):
    session_id: str
    usage: UsageWire
    llm_calls: list[LlmCallWire]


class EventAnswer(TypedDict):
    response: AnswerResponse
    usage: UsageWire
    llm_calls: list[LlmCallWire]


class SessionClosed(TypedDict):
    usage: UsageWire
    error: str | None
    llm_calls: list[LlmCallWire]


class KwargsBody(TypedDict):
    kwargs: NotRequired[dict[str, Any]]


class KwargsAnswer(TypedDict):
    kwargs: dict[str, Any]
