import { valueText } from '../../../core/finding'

/** Characters shown when a value is collapsed, and at most when expanded: the DOM never holds a 10 MB text node. */
export const PREVIEW_CHARS = 600
export const PREVIEW_LINES = 8
export const RENDER_MAX_CHARS = 100_000

/**
 * Control characters (other than tab and newline) shown as visible escapes,
 * so binary content reads as bytes instead of disappearing or garbling the line.
 */
export function visibleText(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

export function previewOf(text: string): { text: string; cut: boolean } {
  let end = Math.min(text.length, PREVIEW_CHARS)
  let lines = 0
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= PREVIEW_LINES) {
      end = i
      break
    }
  }
  return { text: visibleText(text.slice(0, end)), cut: end < text.length }
}

/** A one-line summary for a table row: the first characters, whitespace folded. */
export function oneLine(value: unknown, max = 240): string {
  const text = typeof value === 'string' ? value.slice(0, max * 2) : valueText(value).slice(0, max * 2)
  return visibleText(text.replace(/\s+/g, ' ')).slice(0, max)
}

export { valueText }
