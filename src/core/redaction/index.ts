export { BUILTIN_RULES, compileRule, isRuleProblem, userRule, type RedactionRule, type RuleProblem } from './rules'
export {
  compileRules,
  findMatches,
  mayMatch,
  redactText,
  redactValue,
  previewRedaction,
  stringsOf,
  maskFor,
  type CompiledRules,
  type RedactionMatch,
  type PreviewEntry,
  type RedactionPreview,
} from './redact'
export { secretRule, secretForms, base64Cores, MIN_SECRET_CHARS } from './secretRule'
export { NO_SECRETS, SECRET_MASK, secretMask, secretMaskForms, type SecretMask } from './secretMask'
