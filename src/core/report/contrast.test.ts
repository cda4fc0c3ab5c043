// @vitest-environment jsdom
/**
 * The report's forest is readable: every fill a tag can be painted with, against the colour of each of its words,
 * meets WCAG AA (4.5:1). The fills come from the painting's own functions over their whole range.
 */
import {
  CONTRAST_LEGEND,
  contrastFill,
  FRONTIER_LEGEND,
  frontierFill,
  type FrontierTagPaint,
  type TagEffect,
  type TagPaint,
} from '../sweep/paint'
import { AA_TEXT, contrastRatio, parseColour } from './contrast'
import { forestSvg, NAME_TEXT, RATE_TEXT } from './forestSvg'
import type { ReportTagPaint } from './reportModel'

const pool = (successes: number, completed: number) => ({ models: 1, broken: successes > 0 ? 1 : 0, successes, completed })
const contrast = (effect: TagEffect, withRate = 0): TagPaint => ({
  with: pool(withRate, 100),
  without: pool(0, 100),
  difference: null,
  effect,
})
const frontier = (role: FrontierTagPaint['role'], writes = 0, winners = 1): FrontierTagPaint => ({ writes, reads: 0, winners, role })

/** Every fill the report's forest uses: each effect and role, the red scales at every step from none to all, and the legends'. */
function everyFill(): string[] {
  const steps = Array.from({ length: 101 }, (_, i) => i)
  return [
    ...new Set([
      ...(['unknown', 'no-difference', 'lowers'] as const).map((e) => contrastFill(contrast(e))),
      ...steps.map((k) => contrastFill(contrast('raises', k))),
      frontierFill(frontier('read')),
      frontierFill(frontier('not-needed')),
      ...steps.map((k) => frontierFill(frontier('written', k, 100))),
      ...CONTRAST_LEGEND.map((l) => l.fill),
      ...FRONTIER_LEGEND.map((l) => l.fill),
    ]),
  ]
}

describe('contrastRatio', () => {
  it('is the WCAG ratio: 21 for black on white, 1 for a colour on itself, the same both ways', () => {
    expect(contrastRatio('#000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('rgb(240, 104, 104)', 'rgb(240, 104, 104)')).toBe(1)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2) // the classic grey just under AA
    expect(contrastRatio('#ffffff', '#777777')).toBe(contrastRatio('#777777', '#ffffff'))
  })

  it('refuses a colour it cannot read, by name', () => {
    expect(() => parseColour('red')).toThrow('colour "red": expected #rgb, #rrggbb or rgb(r, g, b)')
  })
})

describe("the report's forest", () => {
  it('has every word colour at WCAG AA (4.5:1) or better on every fill', () => {
    const fills = everyFill()
    expect(fills.length).toBeGreaterThan(50)
    const failing = fills.flatMap((fill) =>
      [NAME_TEXT, RATE_TEXT].map((text) => ({ fill, text, ratio: contrastRatio(fill, text) })).filter((p) => p.ratio < AA_TEXT),
    )
    expect(failing).toEqual([])
  })

  it('sets those colours on every word it draws, over every kind of tag', () => {
    const tag = (name: string, paint: Partial<ReportTagPaint>): ReportTagPaint => ({
      name,
      parent: null,
      description: '',
      contrast: contrast('unknown'),
      frontier: null,
      grant: 'none',
      ...paint,
    })
    const tags = [
      tag('deepest', { contrast: contrast('raises', 100) }),
      tag('lowers', { contrast: contrast('lowers') }),
      tag('written', { frontier: frontier('written', 1, 1), grant: 'write' }),
      tag('read', { frontier: frontier('read'), grant: 'read' }),
    ]
    const doc = new DOMParser().parseFromString(forestSvg(tags), 'image/svg+xml')
    const groups = [...doc.querySelectorAll('g.tag')]
    expect(groups).toHaveLength(4)
    for (const g of groups) {
      const fill = g.querySelector('rect')!.getAttribute('fill')!
      const texts = [...g.querySelectorAll('text')]
      expect(texts.length).toBeGreaterThan(1)
      for (const t of texts) expect(contrastRatio(fill, t.getAttribute('fill')!)).toBeGreaterThanOrEqual(AA_TEXT)
    }
  })

  it('would have failed with the old word colour on the deepest red (the friction of issue 36)', () => {
    expect(contrastRatio(contrastFill(contrast('raises', 100)), '#343a40')).toBeLessThan(AA_TEXT)
  })
})
