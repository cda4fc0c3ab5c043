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

/**
 * Compact JSON of at most about `max` characters, walking only as far as
 * needed: a row preview of a huge object never serialises all of it.
 */
export function jsonPreview(value: unknown, max: number): string {
  let out = ''
  const walk = (v: unknown): void => {
    if (out.length >= max) return
    if (typeof v === 'string') {
      out += JSON.stringify(v.length > max ? v.slice(0, max) : v)
    } else if (Array.isArray(v)) {
      out += '['
      for (let i = 0; i < v.length && out.length < max; i++) {
        if (i) out += ','
        walk(v[i])
      }
      out += ']'
    } else if (v !== null && typeof v === 'object') {
      out += '{'
      let first = true
      for (const k in v) {
        if (out.length >= max) break
        if (!first) out += ','
        first = false
        out += `${JSON.stringify(k)}:`
        walk((v as Record<string, unknown>)[k])
      }
      out += '}'
    } else {
      out += String(v)
    }
  }
  walk(value)
  return out.length > max ? out.slice(0, max) : out
}

/** A one-line summary for a table row: the first characters, whitespace folded. */
export function oneLine(value: unknown, max = 240): string {
  const text = typeof value === 'string' ? value.slice(0, max * 2) : jsonPreview(value, max * 2)
  return visibleText(text.replace(/\s+/g, ' ')).slice(0, max)
}

export { valueText }
