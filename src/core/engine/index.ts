export * from './types'
export * from './events'
export * from './ids'
export { assertNever } from './assertNever'
export { localNaiveIso, utcIso } from './time'
export { EngineRuntimeError, TaskCancelled, describeError, formatError } from './errors'
export { EventChannel, EventEnvelope } from './channel'
export { BaseOptimizer, type Optimizer, type OptimizerFactory } from './optimizer'
export {
  NotApplicable,
  SecurityClaim,
  targetFactory,
  singletonTargetFactory,
  servesTasks,
  type Emit,
  type SendEvent,
  type ServedTaskTarget,
  type Target,
  type TargetFactory,
  type Task,
} from './target'
export * from './outcomes'
export { combineReporters, isResultsWriteFailure, type ProgressReporter, type ThreatModelInfo, type DiagnosticLevel } from './reporter'
export {
  BudgetExhaustedError,
  CostCappedLLMClient,
  DEFAULT_PRICE_TABLE,
  noopLLMClient,
  priceFor,
  costOf,
  samplingFor,
  type ChatBackend,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type Completion,
  type CompletionOptions,
  type CostCappedClientOptions,
  type JsonSchemaFormat,
  type LLMClient,
  type LLMClientFactory,
  type ModelPrice,
  type PriceTable,
  type TokenCounts,
} from './budget'
export { Trajectory, FilteredTrajectory } from './trajectory'
export { billingPrice, billingTable, isOpenAiEndpoint, unpricedCapMessage } from './pricing'
export {
  controllableAsObservable,
  offeredSurfaces,
  resolveTaskScope,
  validateScopeArgs,
  type ScopeResolver,
  type ScopeSpec,
  type TaskScope,
} from './scopeResolution'
export { filterEvaluation } from './runSingle'
export { echoedEvaluation, echoedInjections, echoSentence, type EchoedInjection, type RunEcho } from './echo'
export { whenAborted } from './async'
export { Controller, DEFAULT_MAX_RUNS_PER_TASK, type ControllerOptions, type RunOptions } from './controller'
export { runAll, type RunAllOptions } from './runAll'
