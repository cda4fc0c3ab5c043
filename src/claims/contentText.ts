/** The text of an observation, as matchers and judges read it (JSON for non-strings). */
export function contentText(content: unknown): string {
  return typeof content === 'string' ? content : (JSON.stringify(content) ?? 'null')
}
