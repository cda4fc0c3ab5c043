export { paintForest, widerDidWorse, worstPerWider, rateOf, type ModelOutcome, type TagPaint, type WiderWorse } from './analysis'
export { countPick, expandPick, SweepPickError, type SweepPick, type SweepModel } from './select'
