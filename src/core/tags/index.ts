export { SecurityDomainTag, scopeOf, scopeIncludes, scopeNames, compareNames, type Scope } from './tag'
export { SecurityDomain, SecurityDomainError, type DomainErrorCode } from './domain'
export { distinctCombinations, postOrder } from './combinations'
export { CombinationCursor } from './cursor'
export { combinationsJsonChunks } from './combinationsJson'
export { countCombinations, combinationAt, combinationIndex, subtreeCounts } from './count'
export {
  ForestSchema,
  ForestTagSchema,
  CheckedForestSchema,
  checkForestReferences,
  referencesByTag,
  buildDomain,
  forestOf,
  describeForestIssues,
  formatPath,
  type Forest,
  type ForestTag,
} from './forest'
export { validateScope, hasErrors, type ScopeFinding, type FindingCode, type Severity } from './scopeValidation'
export { CHATBOT_FOREST, AGENTDOJO_FOREST } from './templates'
