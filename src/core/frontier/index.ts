export { Knowledge, type Verdict } from './knowledge'
export { tallyOf, verdictOf, wilson, type Observation, type Question, type Tally } from './observation'
export { frontierSteps, tally, type Seed } from './search'
export {
  completeCounts, contradictionsOf, FrontierSession, SCAN_LIMIT, searchFrontier, searchFrontierSync,
  type Contradiction, type Evaluate, type Evaluation, type FrontierAnswer, type FrontierProgress, type FrontierSearchOptions, type QuestionFrontier,
} from './run'
export { ASSUMPTION, FRONTIER_FILE, FrontierFileSchema, frontierFile, knownEvaluations, type FrontierFile, type FrontierSearchJson, type RunsOf } from './file'
export { claimFrontierOfTasks, mergedEvaluations, shardTasks, type Frontiers } from './merge'
export { mergeFrontierFiles, type FrontierMerge } from './mergeFiles'
export { FrontierMergeError } from './mergeError'
