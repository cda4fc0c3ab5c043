/**
 * WCAG 2 contrast between two sRGB colours (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio):
 * the report checks its forest's words against every fill they sit on (AA asks 4.5:1 for normal text).
 */

/** "#rgb", "#rrggbb" or "rgb(r, g, b)" as [r, g, b] in 0..255; a colour in another form is refused by name. */
export function parseColour(c: string): [number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(c.trim())
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((x) => x + x).join('') : hex[1]
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number]
  }
  const rgb = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(c.trim())
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])]
  throw new Error(`colour ${JSON.stringify(c)}: expected #rgb, #rrggbb or rgb(r, g, b)`)
}

export function relativeLuminance(c: string): number {
  const [r, g, b] = parseColour(c).map((v) => {
    const s = v / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** WCAG AA for normal text. */
export const AA_TEXT = 4.5
