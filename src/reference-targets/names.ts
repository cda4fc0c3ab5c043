/** The reference targets' names, on their own so that the CLI's help can list them without loading the targets. */
export const REFERENCE_TARGET_NAMES = ['assistant', 'chatbot'] as const
export type ReferenceTargetName = (typeof REFERENCE_TARGET_NAMES)[number]

export function isReferenceTargetName(name: string): name is ReferenceTargetName {
  return (REFERENCE_TARGET_NAMES as readonly string[]).includes(name)
}
