export { widerDidWorse, worstPerWider, rateOf, type ModelOutcome, type WiderWorse } from './analysis'
export {
  contrastFill,
  contrastWords,
  CONTRAST_LEGEND,
  effectOf,
  frontierFill,
  FRONTIER_LEGEND,
  frontierWords,
  paintForest,
  paintFrontier,
  type FrontierRole,
  type FrontierTagPaint,
  type GrantNames,
  type Pool,
  type TagEffect,
  type TagPaint,
  type TagPaintWords,
} from './paint'
export {
  countPick,
  expandPick,
  selectionOf,
  SweepPickError,
  threatModelKey,
  type NamedThreatModel,
  type SelectedModel,
  type Selection,
  type SweepPick,
  type SweepModel,
} from './select'
export { parseIndexRanges, type IndexRanges } from './ranges'
export {
  ownerOf,
  parseShard,
  shardFromEnv,
  shardItems,
  shardOf,
  shardSize,
  shardText,
  ShardError,
  WHOLE,
  type Indexed,
  type Shard,
} from './shard'
export {
  compareModelEntries,
  digestOf,
  sweepIdOf,
  sweepRecordText,
  SWEEP_FILE,
  SweepModelEntrySchema,
  SweepPlanSchema,
  SweepRecordSchema,
  SweepSelectionSchema,
  type SweepModelEntry,
  type SweepPlan,
  type SweepRecord,
  type SweepSelection,
} from './record'
export { mergeSweepRecords, SweepMismatchError, type LabelledRecord } from './mergeRecords'
export { isComplete, mergeSweepTrees, prepareSweepMerge, type PreparedSweepMerge, type SweepMergeReport } from './mergeSweep'
export {
  claimSweepFile,
  isSettled,
  modelEntry,
  runSweep,
  shardRecord,
  type ModelRunOutcome,
  type RunSweepOptions,
  type SweepDefinition,
  type SweepProgress,
  type SweepRunSummary,
} from './runSweep'
export { outcomesOf, readSweepManifests, rowsFromManifests, type SweepCell, type SweepRow } from './rows'
