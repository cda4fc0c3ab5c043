export * from './format'
export { ExperimentSession, dumpFile, type ResumePlan } from './writer'
export {
  listExperiments,
  readExperiment,
  readTask,
  readTasks,
  readThreatModelName,
  readTrajectory,
  readJsonFile,
  readOptional,
  ResultsFormatError,
  readTaskConfigs,
  readUnpriced,
  configText,
  type ExperimentRecord,
  type TaskRecord,
} from './reader'
export { deriveAttackerView, readAttackerView, type AttackerView, type AttackerViewSource, type GrantNames } from './attackerView'
export { experimentDirName, identityHash, slugOf, type ExperimentMeta } from './identityHash'
export { experimentSlug, goalHash, goalSlug, slugSegment, taskDirName, runFileName } from './slug'
export { joinPath, parentOf, linkTree, StorageNotFoundError, type Storage, type StorageEntry } from './storage'
export { MemoryStorage } from './memoryStorage'
export { redactingReader, redactingStorage } from './redactingStorage'
export { computeSummary, isKept, taskHeld, type TaskView } from './summary'
export { pyDumps, pyFloat, pyFloatRepr, PyFloat } from './pyjson'
export { sha256Hex } from './sha256'
export { taskStatus } from './taskText'
export {
  copyText,
  disagreement,
  MergeConflictError,
  planTreeMerge,
  writeTreeMerge,
  type FileCopier,
  type TreeMergePlan,
  type TreeSource,
  type PlannedExperiment,
} from './mergeTrees'
export {
  AttackerClashError,
  attackerClashText,
  attackerConfig,
  attackerConfigHash,
  canonicalAttackerConfig,
  derivedAttackerLabel,
  describeAttackerConfig,
  differingKeys,
  findAttackerClashes,
  readAttackerConfig,
  sameAttackerConfig,
  type AttackerClash,
  type ClashQuery,
} from './attackerConfig'
export { repairExperimentsIndex } from './repairIndex'
export {
  addUnpriced,
  costShort,
  costWords,
  sumUnpriced,
  unpricedJsonOf,
  unpricedUsageOf,
  unpricedWords,
  usageCostWords,
  NO_UNPRICED,
  type CostOptions,
} from './cost'
export { runEndWords, runEndsSummary } from './runEndWords'
