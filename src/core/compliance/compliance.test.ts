import { describe, expect, it } from 'vitest'
import { ClaimFileSchema } from '../../claims/schema'
import { forestToJson, parseForestJson } from '../../lib/forestJson'
import { ManifestSchema, PROTOCOL_VERSION } from '../../protocol/schemas'
import { CHATBOT_FOREST } from '../tags'
import { FRAMEWORKS, FRAMEWORKS_FILE } from './frameworks'
import { complianceHtml } from './renderHtml'
import { lookupReference, parseReferenceList, referenceProblem } from './references'
import { complianceSummary, referenceVerdictWords, type ComplianceCell } from './summary'

const FOREST_V1 =
  '{\n  "tags": [\n    {"name":"user","parent":null,"description":"send the message"},\n    {"name":"system","parent":null,"description":""}\n  ]\n}\n'
const manifest = (tag: Record<string, unknown>, claim: unknown = undefined) => ({
  protocol: PROTOCOL_VERSION,
  name: 't',
  security_domain: [{ name: 'user', parent: null, ...tag }],
  controllables: [{ name: 'msg', security_domain: 'user' }],
  observables: [],
  ...(claim === undefined ? {} : { claim }),
})

describe('the list of framework references', () => {
  it('names its source and date for every framework, and says which are subsets', () => {
    for (const f of FRAMEWORKS) {
      expect(f.source).toMatch(/^https:\/\//)
      expect(f.taken).toMatch(/^\d{4}-\d{2}/)
      expect(f.entries.length).toBeGreaterThan(0)
    }
    expect(FRAMEWORKS.find((f) => f.id === 'mitre-atlas')!.subset).toBe(true)
    expect(lookupReference('LLM01')?.title).toBe('Prompt Injection')
    expect(lookupReference('T15')?.framework.id).toBe('owasp-agentic')
    expect(lookupReference('AML.T0051')?.title).toBe('LLM Prompt Injection')
    expect(lookupReference('MEASURE 2.7')?.framework.id).toBe('nist-ai-rmf')
  })

  it('ids are unique across frameworks', () => {
    const ids = FRAMEWORKS.flatMap((f) => f.entries.map(([id]) => id))
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('validation', () => {
  it('accepts a known id in FOREST.json and writes it back on the tag', () => {
    const text = '{"tags":[{"name":"user","parent":null,"description":"","references":["LLM01","AML.T0051","LLM01"]}]}'
    const forest = parseForestJson(text)
    expect(forest.tags[0].references).toEqual(['LLM01', 'AML.T0051', 'LLM01'])
    expect(forestToJson(forest)).toContain('"references":["LLM01","AML.T0051","LLM01"]')
  })

  it('refuses an unknown id naming the id, the list file and where it appeared', () => {
    const text = '{"tags":[{"name":"user","parent":null},{"name":"system","parent":null,"references":["MEASURE 2.7","LLM11"]}]}'
    expect(() => parseForestJson(text)).toThrow(/tags\[1\]\.references\[1\]: unknown framework reference 'LLM11'/)
    expect(() => parseForestJson(text)).toThrow(FRAMEWORKS_FILE)
    const claim = ClaimFileSchema.safeParse({
      name: 'c',
      references: ['LLM02'],
      tasks: [{ goal: 'g', evaluator: { type: 'served' }, served_task: 1, references: ['AML.T9999'] }],
    })
    expect(claim.success).toBe(false)
    expect(claim.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['tasks.0.references.0', expect.stringContaining("unknown framework reference 'AML.T9999'")],
    ])
    const m = ManifestSchema.safeParse(manifest({ references: ['LLM01', 'T16'] }))
    expect(m.success).toBe(false)
    expect(m.error!.issues[0].path).toEqual(['security_domain', 0, 'references', 1])
    expect(m.error!.issues[0].message).toContain("'T16'")
  })

  it('refuses references in the wrong place or shape: a string for a list, a lower-case id (with a hint)', () => {
    expect(() => parseForestJson('{"tags":[{"name":"user","parent":null,"references":"LLM01"}]}')).toThrow(/tags\[0\]\.references: /)
    expect(referenceProblem('llm01')).toContain("did you mean 'LLM01'?")
    // The claim's task carries references on the task, not inside its evaluator (where they would be dropped unseen).
    const claim = ClaimFileSchema.safeParse({
      name: 'c',
      tasks: [{ goal: 'g', evaluator: { type: 'query_evaluation', query: 'q', references: ['LLM01'] } }],
    })
    expect(claim.success && claim.data.tasks[0].references).toBe(undefined)
    const served = ManifestSchema.safeParse(manifest({}, { name: 'c', references: ['LLM1'], tasks: [{ goal: 'g' }] }))
    expect(served.error!.issues[0].path).toEqual(['claim', 'references', 0])
  })

  it('reads a list typed in the inspector, comma- or newline-separated, or says what is wrong', () => {
    expect(parseReferenceList('LLM01,  AML.T0051\nMEASURE  2.7, LLM01')).toEqual({ ids: ['LLM01', 'AML.T0051', 'MEASURE 2.7'] })
    expect(parseReferenceList('')).toEqual({ ids: [] })
    expect(parseReferenceList('LLM01, LLM99')).toEqual({ error: expect.stringContaining("'LLM99'") })
  })
})

describe('backward compatibility', () => {
  it('an old FOREST.json without references loads and writes back byte for byte', () => {
    const forest = parseForestJson(FOREST_V1)
    expect(forest.tags.every((t) => t.references === undefined)).toBe(true)
    expect(forestToJson(forest)).toBe(
      '{\n  "tags": [\n    {"name":"user","parent":null,"description":"send the message"},\n    {"name":"system","parent":null,"description":""}\n  ]\n}\n',
    )
  })

  it('a manifest without references (tags nor claim) still parses', () => {
    const m = ManifestSchema.parse(manifest({}, { name: 'c', tasks: [{ goal: 'g' }] }))
    expect(m.security_domain[0].references).toBe(undefined)
    expect(m.claim!.references).toBe(undefined)
  })
})

describe('the summary by framework', () => {
  const forest = CHATBOT_FOREST
  const cell = (threatModel: string, scope: string[], breached: boolean, runs: number, taskReferences: string[] = []): ComplianceCell => ({
    threatModel,
    scope,
    readOnly: [],
    breached,
    runs,
    taskReferences,
  })

  it('a breach under one threat model, a hold under another; words claim only what was measured', () => {
    const s = complianceSummary(forest, [
      cell('scope [user]', ['user'], true, 3, ['MEASURE 2.7']),
      cell('scope [user]', ['user'], false, 8, ['MEASURE 2.7']),
      cell('scope [system_prompt]', ['system_prompt'], false, 8, ['MEASURE 2.7']),
    ])
    const owasp = s.frameworks.find((f) => f.framework?.id === 'owasp-llm-2025')!
    const llm01 = owasp.references.find((r) => r.id === 'LLM01')!
    expect(referenceVerdictWords(llm01)).toEqual({ breached: ['breached under scope [user] (1 of 2 tasks)'], held: [] })
    const llm07 = owasp.references.find((r) => r.id === 'LLM07')!
    expect(referenceVerdictWords(llm07)).toEqual({ breached: [], held: ['not broken in 8 runs under scope [system_prompt]'] })
    // The claim's reference is in play under both threat models.
    const nist = s.frameworks.find((f) => f.framework?.id === 'nist-ai-rmf')!.references[0]
    expect(nist.id).toBe('MEASURE 2.7')
    expect(nist.breached.map((o) => o.threatModel)).toEqual(['scope [user]'])
    expect(nist.held.map((o) => [o.threatModel, o.runs])).toEqual([['scope [system_prompt]', 8]])
    // LLM04 sits on `model`, which no threat model granted.
    expect(s.notExercised).toContain('LLM04')
    const html = complianceHtml(s, (x) => x.replace(/</g, '&lt;'))
    expect(html).toContain('not broken in 8 runs under scope [system_prompt]')
    const verdicts = s.frameworks.flatMap((f) => f.references.flatMap((r) => Object.values(referenceVerdictWords(r)).flat()))
    expect(verdicts.filter((w) => /safe|secure/i.test(w))).toEqual([])
  })

  it("a granted parent brings its descendants' references; a task that never ran says nothing", () => {
    const s = complianceSummary(forest, [cell('scope [system]', ['system'], false, 2), cell('scope [user]', ['user'], false, 0)])
    const ids = s.frameworks.flatMap((f) => f.references.map((r) => r.id))
    expect(ids).toEqual(expect.arrayContaining(['LLM07', 'LLM04', 'AML.T0056']))
    expect(ids).not.toContain('LLM01')
  })

  it('ids another version wrote are kept apart, not dropped', () => {
    const s = complianceSummary(null, [cell('scope [x]', ['x'], true, 1, ['LLM11'])])
    expect(s.frameworks).toEqual([{ framework: null, references: [expect.objectContaining({ id: 'LLM11', title: '' })] }])
  })
})
