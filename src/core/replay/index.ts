export * from './items'
export { resolveDomains, type ResolvedDomains } from './pairing'
export { forestCoverage, namesOnlyCoverage, coverageFor, type Coverage, type CoverageModel, type Grant } from './coverage'
export { alignByVisibility, alignWithAttackerFile, itemKeys, type Alignment } from './align'
export { markOf, MARK_LABELS } from './marks'
export { explain, type Explanation } from './explain'
export { buildReplay, type Replay, type ViewSource } from './replay'
export { diffRuns, textDelta, payloadOf, type DiffRow, type DiffStatus, type RunDiff } from './diff'
export { chartGeometry, type ChartGeometry, type RunPoint } from './chart'
export { markBins, BIN } from './minimap'
export {
  stepKind,
  isInjectionPoint,
  stepNumber,
  itemIndexOfStep,
  plainKind,
  declinedByWords,
  stepWords,
  type StepKind,
  type Access,
  type StepWords,
  type StepWordsInput,
} from './wording'
export { learnedThroughFeedback, learnedWords, MIN_PIECE, MIN_WHOLE, type Learned } from './learned'
