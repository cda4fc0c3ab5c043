export {
  CompareInputError,
  claimsOf,
  modelKey,
  readSide,
  restrictSide,
  taskKeys,
  type FrontierModel,
  type Side,
  type SideFrontier,
  type TaskOutcome,
  type TaskOutcomeKind,
  type ThreatModelResult,
} from './side'
export {
  changesOf,
  compareSides,
  grantsText,
  type AsrSide,
  type Comparison,
  type Counts,
  type FrontierChange,
  type ModelChange,
  type TaskChange,
  type TaskChangeKind,
} from './compare'
export { FAIL_ON_FORMS, failOnText, gateFailures, modelLabel, parseFailOn, type FailOn } from './gate'
export { junitXml, xmlEscape } from './junit'
export { FINGERPRINT_KEY, fingerprintOf, ruleIdOf, SARIF_SCHEMA, sarifLog, type SarifOptions } from './sarif'
export { asrChangeText, CHANGE_WORDS, comparisonText, countsText, frontierQuestionText, outcomeText } from './text'
export { CHANGE_LEGEND, changeFill, changeWords, paintChanges, type ChangeTagPaint, type TagChange } from './paint'

export { compareStorages, ComparisonError, type LabelledStorage, type OpenedComparison, type SideName } from './storages'
