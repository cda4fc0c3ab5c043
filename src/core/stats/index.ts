export { wilsonInterval, Z_95, type Interval } from './wilson'
export { differenceInterval, type Count } from './difference'
export {
  asrText,
  highPercent,
  intervalText,
  lowPercent,
  ratePercent,
  rateWords,
  type RateWords,
  type RateWordsOptions,
  type TrialUnit,
} from './words'
