import { forestFromManifest, ManifestSchema, protocolMajor, ResponseBodySchema, RunStepSchema } from './schemas'

// The draft's own examples, verbatim: servers written against the draft must keep working.
const draftManifest = {
  protocol: 'superred-target-http/1',
  name: 'demo-assistant',
  description: 'A tool-using assistant over an inbox, a calendar and a bank account',
  security_domain: [
    { name: 'system', parent: null, description: 'full control of the system side' },
    { name: 'system_prompt', parent: 'system', description: 'override the system prompt' },
    { name: 'user', parent: null, description: 'send the user message' },
  ],
  controllables: [{ name: 'user_message', security_domain: 'user', description: "the user's message", value_type: 'text' }],
  observables: [
    { name: 'model_identity', security_domain: 'system', description: 'which model runs', observable_type: 'text', content: 'gpt-4o-mini' },
  ],
  config_specs: [{ name: 'system_prompt', security_domain: 'system', description: 'the system prompt' }],
  query_specs: [{ name: 'sent_emails', description: 'emails sent during the run', params: [] }],
  concurrency: 4,
}

const draftStep = {
  run_id: 'r1',
  events: [
    {
      type: 'ObservableEvent',
      observable: { name: 'model_output', security_domain: 'model', description: '', observable_type: 'text' },
      content: 'calling read_inbox',
    },
  ],
  status: 'paused',
  pause: { call_id: 'c3', type: 'ControllablePreCallEvent', controllable: 'inbox_email', request: 'read_inbox()' },
  error: null,
}

describe('ManifestSchema', () => {
  it("parses the draft's example and gives its forest in order", () => {
    const m = ManifestSchema.parse(draftManifest)
    expect(m.concurrency).toBe(4)
    expect(forestFromManifest(m)).toEqual({ tags: draftManifest.security_domain })
  })

  it('ignores unknown fields and defaults the optional ones', () => {
    const rest: Record<string, unknown> = { ...draftManifest, future_field: 1 }
    for (const key of ['concurrency', 'config_specs', 'query_specs']) delete rest[key]
    const m = ManifestSchema.parse(rest)
    expect(m).not.toHaveProperty('future_field')
    expect(m.concurrency).toBe(1)
    expect(m.query_specs).toEqual([])
  })

  it('refuses another protocol major, naming the field', () => {
    const r = ManifestSchema.safeParse({ ...draftManifest, protocol: 'superred-target-http/2' })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0].path).toEqual(['protocol'])
    expect(protocolMajor('superred-target-http/1.3')).toBe(1)
    expect(protocolMajor('something-else/1')).toBeNull()
  })

  it('refuses a dangling parent, a duplicate tag and a surface on an unknown tag', () => {
    const dangling = ManifestSchema.safeParse({ ...draftManifest, security_domain: [{ name: 'a', parent: 'zzz' }] })
    expect(dangling.error?.issues[0].message).toBe("Tag 'a' has parent 'zzz' which is not in the domain")
    const dup = ManifestSchema.safeParse({
      ...draftManifest,
      security_domain: [...draftManifest.security_domain, { name: 'user', parent: null }],
    })
    expect(dup.error?.issues[0].message).toBe("Duplicate tag name: 'user'")
    const unknown = ManifestSchema.safeParse({ ...draftManifest, controllables: [{ name: 'x', security_domain: 'nope' }] })
    expect(unknown.error?.issues[0].path).toEqual(['controllables', 0, 'security_domain'])
  })
})

describe('RunStepSchema', () => {
  it("parses the draft's example", () => {
    const s = RunStepSchema.parse(draftStep)
    expect(s.pause).toMatchObject({ type: 'ControllablePreCallEvent', controllable: 'inbox_email' })
    expect(s.events[0].content).toBe('calling read_inbox')
  })

  it('requires a pause when paused, an error when failed, and an answer on a post-call pause', () => {
    expect(RunStepSchema.safeParse({ ...draftStep, pause: null }).success).toBe(false)
    expect(RunStepSchema.safeParse({ ...draftStep, status: 'failed', pause: null }).success).toBe(false)
    expect(RunStepSchema.parse({ ...draftStep, status: 'failed', pause: null, error: { code: 'x', message: 'boom' } }).error).toBe('boom')
    expect(RunStepSchema.safeParse({ ...draftStep, pause: { ...draftStep.pause, type: 'ControllablePostCallEvent' } }).success).toBe(false)
  })

  it('defaults declined_by to optimizer, as the reference', () => {
    const b = ResponseBodySchema.parse({ call_id: 'c1', response: { type: 'ControllableNoInjection' } })
    expect(b.response).toEqual({ type: 'ControllableNoInjection', declined_by: 'optimizer' })
  })
})
