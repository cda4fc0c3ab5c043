export { FRAMEWORKS, FRAMEWORKS_FILE, type Framework, type FrameworkId } from './frameworks'
export {
  allReferenceIds,
  lookupReference,
  mergeTagReferences,
  parseReferenceList,
  referenceProblem,
  ReferenceIdSchema,
  ReferencesSchema,
  LooseReferencesSchema,
  sortReferences,
  type KnownReference,
} from './references'
export {
  complianceSummary,
  referenceVerdictWords,
  threatModelWords,
  type ComplianceCell,
  type ComplianceSummary,
  type FrameworkSummary,
  type ReferenceVerdict,
} from './summary'
export { complianceHtml, COMPLIANCE_ABOUT } from './renderHtml'
