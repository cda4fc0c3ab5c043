/** The reference targets' names, on their own so that the CLI's help can list them without loading the targets. */
export const REFERENCE_TARGET_NAMES = ['assistant', 'chatbot', 'stochastic'] as const
export type ReferenceTargetName = (typeof REFERENCE_TARGET_NAMES)[number]

/**
 * The ones the app serves beside itself at /targets/<name>/ (the run console's demos): the stochastic target is
 * a reference for the frontier search, served on its own (`redscope serve-target stochastic`).
 */
export const DEMO_TARGET_NAMES = ['assistant', 'chatbot'] as const satisfies readonly ReferenceTargetName[]

export function isReferenceTargetName(name: string): name is ReferenceTargetName {
  return (REFERENCE_TARGET_NAMES as readonly string[]).includes(name)
}
