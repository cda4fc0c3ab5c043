import fc from 'fast-check'
import { createTargetServer, type RunningTargetServer } from '../servers/target'
import { referenceTargetOptions } from '../reference-targets'
import { parseWire, readEmptyBody, readResponseBody, readRunStep } from './hotMessages'
import { EmptyBodySchema, ResponseBodySchema, RunStepSchema } from './schemas'

/** Field order and keys present as undefined count: the readers must give exactly zod's object. */
const exactly = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '<undefined>' : x))

const EVENT_ID = '0b8e4c36-2f7a-4c1e-9d55-8f3a1e2b7c90'
const TIMESTAMP = '2026-12-01T15:38:00.123000'

/** A value for a field: mostly valid ones, some of every kind the schema refuses. */
const text = fc.constantFrom('a', 'inbox_email', 'x'.repeat(3), 'a', 'inbox_email', '')
const odd = fc.constantFrom(null, undefined, 0, 1, true, [], {}, 'ObservableEvent')
const maybe = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: odd, weight: 1 })
const idField = maybe(fc.constantFrom(EVENT_ID, EVENT_ID.toUpperCase(), 'not-a-uuid'))
const timeField = maybe(fc.constantFrom(TIMESTAMP, '2026-12-01T15:38:00', '15:38'))
const domain = maybe(fc.constantFrom('system', 'user', '', null))

const observable = fc.record(
  { name: maybe(text), security_domain: domain, description: maybe(text), observable_type: maybe(text), extra: text },
  { requiredKeys: ['name'] },
)
const event = fc.record(
  {
    type: maybe(fc.constant('ObservableEvent')),
    observable: maybe(observable),
    content: fc.jsonValue({ maxDepth: 2 }),
    security_domain: domain,
    event_id: idField,
    timestamp: timeField,
  },
  { requiredKeys: ['type', 'observable'] },
)
const descriptor = fc.record(
  { security_domain: domain, description: maybe(text), value_type: maybe(text) },
  { requiredKeys: ['security_domain'] },
)
const pause = fc.record(
  {
    call_id: maybe(text),
    type: maybe(fc.constantFrom('ControllablePreCallEvent', 'ControllablePostCallEvent')),
    controllable: maybe(text),
    request: maybe(text),
    answer: maybe(text),
    descriptor: maybe(descriptor),
    event_id: idField,
    timestamp: timeField,
  },
  { requiredKeys: ['call_id', 'type', 'controllable', 'request'] },
)
const evaluation = fc.oneof(
  { arbitrary: fc.constant(null), weight: 8 },
  fc.constantFrom({ success: true, primary_score: { value: 1 } }, { success: 'yes' }),
)
const stepFields = {
  run_id: maybe(text),
  events: maybe(fc.array(event, { maxLength: 3 })),
  error: maybe(fc.constantFrom('boom', { message: 'boom' }, null, null)),
  evaluation,
  evaluation_error: maybe(fc.constantFrom('ValueError: x', null)),
  extra: text,
}
// Mostly a pause with 'paused' and none otherwise, as servers send; the rest breaks the schema's cross-field rules.
const runStep = fc.oneof(
  fc.record({ ...stepFields, status: maybe(fc.constant('paused')), pause: maybe(pause) }, { requiredKeys: ['run_id', 'status', 'pause'] }),
  fc.record(
    { ...stepFields, status: maybe(fc.constantFrom('finished', 'failed')), pause: fc.constantFrom(null, undefined) },
    { requiredKeys: ['run_id', 'status'] },
  ),
  fc.record(
    { ...stepFields, status: maybe(fc.constantFrom('paused', 'finished', 'failed')), pause: maybe(pause) },
    { requiredKeys: ['run_id', 'status'] },
  ),
)
const responseBody = fc.record(
  {
    call_id: maybe(text),
    response: maybe(
      fc.record(
        {
          type: maybe(fc.constantFrom('ControllableInjection', 'ControllableNoInjection')),
          value: maybe(text),
          declined_by: maybe(fc.constantFrom('scope', 'optimizer', 'nobody')),
        },
        { requiredKeys: ['type'] },
      ),
    ),
  },
  { requiredKeys: ['call_id', 'response'] },
)

/** Runs the property; returns how many messages the reader took (the rest went to zod). */
function sameAsZod(
  arbitrary: fc.Arbitrary<unknown>,
  read: (json: unknown) => unknown,
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
): number {
  let taken = 0
  fc.assert(
    fc.property(arbitrary, (json) => {
      const fast = read(json)
      if (fast === undefined) return
      taken += 1
      const slow = schema.safeParse(json)
      expect(slow.success).toBe(true)
      expect(exactly(fast)).toBe(exactly(slow.data))
    }),
    { numRuns: 3000 },
  )
  return taken
}

describe('hot message readers', () => {
  it('a RunStep the reader takes is exactly what RunStepSchema makes of it, and it takes plenty', () => {
    expect(sameAsZod(runStep, readRunStep, RunStepSchema)).toBeGreaterThan(50)
  })

  it('a response body the reader takes is exactly what ResponseBodySchema makes of it', () => {
    expect(sameAsZod(responseBody, readResponseBody, ResponseBodySchema)).toBeGreaterThan(300)
  })

  it('an empty body is any object, read as a fresh {}; anything else goes to the schema', () => {
    const body = { extra: 1 }
    expect(readEmptyBody(body)).toEqual({})
    expect(readEmptyBody(body)).not.toBe(body)
    for (const notObject of [null, [], 'x', 3]) {
      expect(readEmptyBody(notObject)).toBeUndefined()
      expect(EmptyBodySchema.safeParse(notObject).success).toBe(false)
    }
  })

  it("a malformed message still gets the schema's own error, path and all", () => {
    const missing = parseWire(RunStepSchema, { run_id: 'r1', status: 'paused' })
    expect(missing.success).toBe(false)
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['pause', 'a paused run must carry its pause']])
    const badEvent = parseWire(RunStepSchema, {
      run_id: 'r1',
      status: 'finished',
      events: [{ type: 'ObservableEvent', observable: { name: '', security_domain: null } }],
    })
    expect(badEvent.error?.issues[0].path).toEqual(['events', 0, 'observable', 'name'])
    const badResponse = parseWire(ResponseBodySchema, { call_id: 'c1', response: { type: 'ControllableNoInjection', declined_by: null } })
    expect(badResponse.error?.issues[0].path).toEqual(['response', 'declined_by'])
  })

  describe('on the steps a real server sends', () => {
    let running: RunningTargetServer
    beforeAll(async () => {
      running = await createTargetServer(referenceTargetOptions('assistant')).listen(0)
    })
    afterAll(async () => {
      await running.close()
    })

    it("every step of the reference assistant's run takes the reader and reads as zod reads it", async () => {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${running.url}${path}`, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'Content-Type': 'application/json' },
        })
        return res.json() as Promise<unknown>
      }
      const { session_id: sid } = (await post('/sessions', {})) as { session_id: string }
      const steps: unknown[] = [await post(`/sessions/${sid}/runs`, {})]
      for (let step = steps[0] as { run_id: string; status: string; pause: { call_id: string } | null }; step.status === 'paused';) {
        const body = { call_id: step.pause!.call_id, response: { type: 'ControllableNoInjection', declined_by: 'scope' } }
        expect(readResponseBody(body)).toEqual(ResponseBodySchema.parse(body))
        step = (await post(`/sessions/${sid}/runs/${step.run_id}/responses`, body)) as typeof step
        steps.push(step)
      }
      expect(steps.length).toBeGreaterThan(5)
      expect((steps.at(-1) as { status: string }).status).toBe('finished')
      for (const step of steps) {
        const fast = readRunStep(step)
        expect(fast).toBeDefined()
        expect(exactly(fast)).toBe(exactly(RunStepSchema.parse(step)))
      }
      // Events with ids and timestamps came through: the reader kept them, not just the bare fields.
      const events = steps.flatMap((s) => readRunStep(s)!.events)
      expect(events.length).toBeGreaterThan(3)
      expect(events.every((e) => e.event_id !== undefined && e.timestamp !== undefined)).toBe(true)
    })
  })
})
