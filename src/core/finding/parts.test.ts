import { buildReplay, coverageFor } from '../replay'
import { end, inj, obs, pre } from '../replay/testItems'
import { buildFinding, fieldKey, findingTexts, redactParts, renderFindingHtml, type FindingMeta } from '.'

const forest = {
  tags: [
    { name: 'user', parent: null, description: '' },
    { name: 'web', parent: null, description: '' },
  ],
}
const meta: FindingMeta = {
  experiment: { dir: 'exp', attacker: 'a', target: 't', claim: 'c', model: 'no-llm' },
  task: { index: 1, goal: 'leak', status: 'success', stopReason: 'success' },
  run: { number: 1, score: 1, success: true, cumulativeCost: 0 },
  forest,
  evaluation: { success: true, primaryScore: 1, rationale: 'leaked', subScores: [] },
  exportedAt: '2026-12-01T00:00:00Z',
}
const finding = buildFinding(
  buildReplay(
    [pre('u', 'user', 'ask'), inj('u', 'SECRET-1'), obs('w', 'web', 'page SECRET-2'), end('user')],
    null,
    coverageFor(forest, { scope: ['user'], readOnly: [] }),
  ),
  meta,
  new Map([[1, { note: 'note SECRET-3', bookmarked: false }]]),
)

describe('the finding as people read it, for redaction', () => {
  it('labels every step text by step number and field, never by a JSON path', () => {
    const wheres = [...findingTexts(finding)].map((t) => t.where)
    expect(wheres).toContain('Step 1 · request')
    expect(wheres).toContain('Step 2 · value')
    expect(wheres).toContain('Step 2 · note')
    expect(wheres).toContain('Step 3 · content')
    expect(wheres.some((w) => /\[|\.steps/.test(w))).toBe(false)
  })

  it('redacts a whole step (fields and note) or one field, and the page shows exactly that', () => {
    const masked = redactParts(finding, { steps: new Set([2]), fields: new Set([fieldKey(3, 'content')]) })
    const texts = [...findingTexts(masked)].map((t) => t.text).join('\n')
    expect(texts).not.toMatch(/SECRET-[123]/)
    expect(texts).toContain('[redacted: whole step]')
    expect(texts).toContain('[redacted: field]')
    // The observable's name (another field of step 3) stays.
    expect(masked.steps[2].fields.find((f) => f.label === 'observable')!.text).toBe('w')
    const html = renderFindingHtml(masked)
    expect(html).not.toMatch(/SECRET-[123]/)
    // Untouched parts are the same objects: nothing else changes.
    expect(masked.steps[0]).toBe(finding.steps[0])
    expect(redactParts(finding, { steps: new Set(), fields: new Set() })).toBe(finding)
  })
})
