import type { ClaimFile } from '../../../claims'
import { demoModelIssue, demoTitle, withDemoModel } from './demoModel'
import { defaultSetup, SetupSchema, type TargetSetup } from './setupTypes'

const claim: ClaimFile = {
  name: 'c',
  description: '',
  target: 'chatbot',
  tasks: [
    { goal: 'g', config: { defence: 'none' }, evaluator: { type: 'query_evaluation', query: 'leak_evaluation', params: {} } },
    { goal: 'g', config: { policy_model: '' }, evaluator: { type: 'query_evaluation', query: 'leak_evaluation', params: {} } },
  ],
} as unknown as ClaimFile

const demo = (patch: Partial<TargetSetup['demoModel']> = {}): TargetSetup => ({
  ...defaultSetup().target,
  demoModel: { ...defaultSetup().target.demoModel, ...patch },
})

describe("the demo target's model switch", () => {
  it('is off by default, and a setup stored before it existed parses as off', () => {
    expect(defaultSetup().target.demoModel.on).toBe(false)
    const stored = defaultSetup() as unknown as { target: Record<string, unknown> }
    delete stored.target.demoModel
    const parsed = SetupSchema.parse(stored)
    expect(parsed.target.demoModel).toEqual({ on: false, baseURL: 'http://127.0.0.1:8808/v1', model: 'smollm2' })
  })

  it('off, the claim is untouched and the title says deterministic', () => {
    expect(withDemoModel(claim, demo())).toBe(claim)
    expect(demoTitle(demo())).toBe('demo chatbot (deterministic)')
  })

  it('on, every task gets the model in its config unless it sets its own, and the title names the model', () => {
    const t = demo({ on: true, baseURL: 'http://127.0.0.1:8808/v1/' })
    const out = withDemoModel(claim, t)
    expect(out.tasks[0].config).toEqual({ policy_model: 'smollm2', policy_base_url: 'http://127.0.0.1:8808/v1', defence: 'none' })
    expect(out.tasks[1].config.policy_model).toBe('')
    expect(demoTitle(t)).toBe('demo chatbot on smollm2')
    // Another kind of target never gets it.
    expect(withDemoModel(claim, { ...t, kind: 'http' })).toBe(claim)
  })

  it('says what is wrong with the model fields, and refuses to build a run with them', () => {
    expect(demoModelIssue(demo({ on: true, model: ' ' }))).toBe('name the model the server serves (e.g. smollm2)')
    expect(demoModelIssue(demo({ on: true, baseURL: 'nope' }))).toMatch(/base URL/)
    expect(demoModelIssue(demo({ on: true, baseURL: 'http://u:p@127.0.0.1:8808/v1' }))).toMatch(/credentials/)
    expect(demoModelIssue(demo({ on: false, baseURL: 'nope' }))).toBeNull()
    expect(() => withDemoModel(claim, demo({ on: true, baseURL: 'ftp://x' }))).toThrow("Target: the model server's URL must be http(s)")
  })
})
