export * from './schemas'
export { RemoteOptimizer, type RemoteOptimizerOptions } from './remoteOptimizer'
export { ServedLlmClient, servedLlmClientFactory } from './servedLlm'
export {
  connectServedOptimizer,
  readOptimizerManifest,
  shownOptimizerUrl,
  DEFAULT_OPTIMIZER_REQUEST_TIMEOUT_MS,
  ServedOptimizerError,
  type ServedOptimizerConfig,
  type ServedOptimizerOptions,
  type ServedOptimizerSource,
} from './servedOptimizer'
export { TagLedger, controllableWire, eventWire, itemWire, observableWire, evaluationWire } from './wireItems'
