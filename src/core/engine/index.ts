export * from './types'
export * from './events'
export * from './ids'
export { assertNever } from './assertNever'
export { localNaiveIso, utcIso } from './time'
export { EventChannel, EventEnvelope, EngineRuntimeError } from './channel'
export { BaseOptimizer, type Optimizer, type OptimizerFactory } from './optimizer'
export {
  NotApplicable, SecurityClaim, targetFactory, singletonTargetFactory,
  type Emit, type SendEvent, type Target, type TargetFactory, type Task,
} from './target'
export * from './outcomes'
export { combineReporters, type ProgressReporter, type ThreatModelInfo, type DiagnosticLevel } from './reporter'
export {
  BudgetExhaustedError,
  type ChatMessage, type Completion, type CompletionOptions, type LLMClient, type TokenCounts,
} from './budget'
