export { Knowledge, type Settled, type Verdict } from './knowledge'
export { outcomesOf, tallyOf, verdictOf, wilson, type Observation, type Question, type Tally } from './observation'
export {
  decide,
  DEFAULT_THRESHOLD,
  MAX_REPEATS,
  mixtureInterval,
  runsBeforeADecision,
  sequenceInterval,
  testProblem,
  type Decision,
  type RateInterval,
  type SequentialTest,
} from './sequential'
export { frontierSteps, tally, type Seed } from './search'
export {
  completeCounts,
  contradictionsOf,
  deciderFor,
  FrontierSession,
  SCAN_LIMIT,
  searchFrontier,
  searchFrontierSync,
  type Contradiction,
  type Decider,
  type Evaluate,
  type Evaluation,
  type FrontierAnswer,
  type FrontierProgress,
  type FrontierSearchOptions,
  type QuestionFrontier,
} from './run'
export {
  ASSUMPTION,
  FRONTIER_FILE,
  FrontierFileSchema,
  frontierFile,
  knownEvaluations,
  TESTED_ASSUMPTION,
  testOf,
  type FrontierFile,
  type FrontierSearchJson,
  type RunsOf,
} from './file'
export { claimFrontierOfTasks, mergedEvaluations, shardTasks, type Frontiers } from './merge'
export { mergeFrontierFiles, type FrontierMerge } from './mergeFiles'
export { FrontierMergeError } from './mergeError'
export { answerWords, type AnswerPoint, type FrontierAnswerWords } from './answer'
