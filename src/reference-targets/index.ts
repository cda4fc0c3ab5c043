export {
  REFERENCE_TARGETS,
  REFERENCE_TARGET_NAMES,
  referenceTargetOptions,
  isReferenceTargetName,
  type ReferenceTargetName,
} from './catalog'
export { AssistantTarget, DEFAULT_USER_TASK, systemPromptFor } from './assistant/assistantTarget'
export { ASSISTANT_FOREST } from './assistant/forest'
export { DEFENCES, type Defence } from './assistant/defences'
export { SECURITY_CODE, TRUSTED_CONTACTS } from './assistant/world'
export { ChatbotTarget, CHATBOT_IDENTITY } from './chatbot/chatbotTarget'
export { CHATBOT_DEFENCES, DEFAULT_SECRET, type ChatbotDefence } from './chatbot/policy'
export { DEFAULT_THINK_MS, THINK_ENV, parseThinkMs, thinkMsFromEnv, withThinkTime } from './thinkTime'
export { StochasticTarget, stochasticSurfaces, STOCHASTIC_IDENTITY, DEFAULT_STOCHASTIC_SEED } from './stochastic/stochasticTarget'
export { STOCHASTIC_FOREST } from './stochastic/forest'
export { hashToUnit, PULLS, refundChance, refundChanceOfTags, seededDraws, seededStream } from './stochastic/odds'
export { servedModel, withPolicyModel, type PolicyModel } from './policyModel'
