export {
  buildFinding, itemFields, valueText, cutText, DEFAULT_FINDING_OPTIONS,
  type Finding, type FindingStep, type FindingEvaluation, type FindingMeta, type FindingOptions, type StepAnnotation,
} from './finding'
export { renderFindingHtml, escapeHtml, EXPORT_CSP } from './renderHtml'
