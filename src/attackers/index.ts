export { PAYLOAD_LIBRARY, payloadNamed, fillTemplate, type PayloadTemplate, type TemplateContext } from './payloads'
export { INJECT_ON, isInjectOn, injectsAt, type InjectOn } from './injectOn'
export { TemplateOptimizer, templateOptimizerFactory, type TemplateOptions } from './templateOptimizer'
export {
  LlmOptimizer,
  llmOptimizerFactory,
  cleanInjection,
  isDecline,
  DEFAULT_MAX_TURNS,
  LLM_ATTACKER_SYSTEM_PROMPT,
  NO_INJECTION,
  type LlmAttackerOptions,
} from './llmOptimizer'
export { ReplayOptimizer, replayOptimizerFactory, recordedRun, type RecordedAnswer, type RecordedRun } from './replayOptimizer'
export { HumanOptimizer, humanOptimizerFactory, type HumanPrompter, type HumanInjectionRequest, type HumanRunEnd } from './humanOptimizer'
export { describeTrajectory, describeItem, describeEvaluation } from './describeTrajectory'
export {
  humanAttackerConfig,
  llmAttackerConfig,
  recordedApiBase,
  replayAttackerConfig,
  servedAttackerConfig,
  templateAttackerConfig,
  type LlmAttackerSetup,
} from './attackerConfigs'
