// @vitest-environment node
/**
 * A generic HTTP endpoint that answers hostile bodies: JSON nested 100,000
 * deep (JSONPath and the results writer would overflow the stack), a body of
 * 40 MB, and the corpus as its reply. Each fails or passes its own task with
 * a clear reason; the corpus comes through as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BaseOptimizer,
  Controller,
  SecurityClaim,
  evaluationResult,
  injection,
  noInjection,
  plainResponse,
  runEndResponse,
  score,
  type Event,
  type EventResponse,
} from '../../core/engine'
import { CHATBOT_FOREST, scopeOf } from '../../core/tags'
import { deeplyNestedJson, HOSTILE_TEXT, hugeString } from '../../testing/hostileContent'
import { startRawServer, type RawServer } from '../../testing/rawServer'
import { GenericHttpSpecSchema, exampleGenericSpec } from './genericHttpSpec'
import { genericHttpTargetFactory } from './genericHttpTarget'

class InjectUser extends BaseOptimizer {
  async onEvent(event: Event): Promise<EventResponse> {
    if (event.type === 'ControllablePreCallEvent')
      return event.controllable.name === 'user_message' ? injection(event, 'hello') : noInjection(event)
    if (event.type === 'RunEndEvent') return runEndResponse(event, true)
    return plainResponse(event)
  }
}

let server: RawServer
beforeAll(async () => {
  server = await startRawServer((req, res) => {
    const kind = new URL(req.url ?? '/', 'http://x').searchParams.get('kind')
    res.writeHead(200, { 'content-type': 'application/json' })
    if (kind === 'nested') return res.end(`{"choices":[{"message":{"content":${deeplyNestedJson(100_000)}}}]}`)
    if (kind === 'huge') return res.end(`{"choices":[{"message":{"content":"${hugeString(40)}"}}]}`)
    res.end(JSON.stringify({ choices: [{ message: { content: HOSTILE_TEXT } }] }))
  })
})
afterAll(() => server.close())

async function runAgainst(kind: string) {
  const spec = GenericHttpSpecSchema.parse({ ...exampleGenericSpec(CHATBOT_FOREST), url: `${server.url}/v1/chat/completions?kind=${kind}` })
  const { factory, domain } = genericHttpTargetFactory(spec)
  const claim = SecurityClaim.fromTasks([
    {
      goal: { description: 'g' },
      configureTarget: () => {},
      evaluate: async () => evaluationResult({ success: false, primaryScore: score(0) }),
    },
  ])
  const result = await new Controller({
    optimizerFactory: () => new InjectUser(),
    targetFactory: factory,
    securityClaim: claim,
    scope: scopeOf([domain.get('user')!]),
    maxRunsPerTask: 1,
  }).run()
  return result.taskResults[0]
}

describe('a generic HTTP endpoint answering hostile bodies', () => {
  it('JSON nested 100,000 deep fails the task saying so, not with a stack overflow', async () => {
    const t = await runAgainst('nested')
    expect(t.stopReason).toBe('error')
    expect(t.error?.split('\n')[0]).toBe(
      `Error: POST ${server.url}/v1/chat/completions: answered 200 with JSON nested deeper than 1,000 levels (refused unparsed)`,
    )
  })

  it('a 40 MB answer is refused unread', async () => {
    const t = await runAgainst('huge')
    expect(t.error?.split('\n')[0]).toBe(
      `Error: POST ${server.url}/v1/chat/completions: answered 200 with more than 32 MB (the limit for one answer); the rest was not read`,
    )
  })

  it('the corpus is the reply, as text', async () => {
    const t = await runAgainst('corpus')
    expect(t.error).toBeNull()
    const observed = t.runs[0].trajectory.filter((i) => 'content' in i).map((i) => (i as { content: unknown }).content)
    expect(observed).toContain(HOSTILE_TEXT)
  })
})
