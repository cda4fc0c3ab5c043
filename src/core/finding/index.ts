export {
  buildFinding,
  itemFields,
  valueText,
  cutText,
  DEFAULT_FINDING_OPTIONS,
  type Finding,
  type FindingStep,
  type FindingEvaluation,
  type FindingMeta,
  type FindingOptions,
  type StepAnnotation,
} from './finding'
export { renderFindingHtml, escapeHtml, EXPORT_CSP } from './renderHtml'
export { redactParts, findingTexts, fieldKey, NO_PARTS, WHOLE_STEP_MASK, FIELD_MASK, type RedactedParts } from './parts'
