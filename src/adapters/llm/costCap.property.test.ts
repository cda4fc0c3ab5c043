// @vitest-environment node
/**
 * The per-task cost cap as a property over random schedules: the real
 * openai-SDK client against a real loopback server, calls started at random
 * times with random latencies and random real costs. Whatever the schedule:
 * - once the spend reaches the cap, no call starts (none reaches the server);
 * - the spend passes the cap by at most the cost of the calls that were
 *   already in flight when it reached it;
 * - when real costs stay within the reservation (maxTokens), by less than one
 *   call ("reference" mode), and never at all in "strict" mode.
 */
import fc from 'fast-check'
import { BudgetExhaustedError, type CostCappedLLMClient } from '../../core/engine/budget'
import { startScriptedLlm, type ScriptedLlm } from '../../testing/scriptedLlm'
import { openAiClientFactory } from './openaiClient'

interface PlannedCall {
  readonly startMs: number
  readonly latencyMs: number
  readonly maxTokens: number
  /** Completion tokens really used: $1 each. May exceed maxTokens (a provider that ignores it). */
  readonly used: number
}

let llm: ScriptedLlm
let plan: PlannedCall[] = []
beforeAll(async () => {
  llm = await startScriptedLlm((call) => {
    const p = plan[Number(call.messages[0].content)]
    return { kind: 'reply', content: 'ok', delayMs: p.latencyMs, usage: { prompt_tokens: 7, completion_tokens: p.used } }
  })
})
afterAll(() => llm.close())

/** $1 per completion token and nothing for prompts: a call reserves exactly maxTokens dollars. */
const priceTable = { 'prop-model': { inputPerMillion: 0, outputPerMillion: 1_000_000 } }

type Event =
  { kind: 'start'; call: number } | { kind: 'refused'; call: number } | { kind: 'end'; call: number; cost: number; spent: number }

async function play(calls: PlannedCall[], cap: number, capMode: 'reference' | 'strict') {
  plan = calls
  const served = llm.calls.length
  const client = openAiClientFactory({ configured: priceTable, maxRetries: 0, capMode })(
    { model: 'prop-model', apiBase: llm.baseURL, apiKey: 'sk-prop' },
    cap,
    new AbortController().signal,
  ) as CostCappedLLMClient
  const events: Event[] = []
  await Promise.all(
    calls.map(async (c, i) => {
      await new Promise((r) => setTimeout(r, c.startMs))
      const before = client.callsInFlight
      const pending = client.complete([{ role: 'user', content: String(i) }], { maxTokens: c.maxTokens })
      // complete() checks the cap and reserves synchronously: a call that started shows in callsInFlight at once.
      if (client.callsInFlight === before) {
        events.push({ kind: 'refused', call: i })
        await expect(pending).rejects.toBeInstanceOf(BudgetExhaustedError)
        return
      }
      events.push({ kind: 'start', call: i })
      const done = await pending
      events.push({ kind: 'end', call: i, cost: done.costUsd, spent: client.usage.cost })
    }),
  )
  const reachedServer = llm.calls.slice(served).map((c) => Number(c.messages[0].content))
  return { events, spent: client.usage.cost, reachedServer }
}

const schedule = (maxUsedFactor: number) =>
  fc.array(
    fc
      .record({
        startMs: fc.integer({ min: 0, max: 12 }),
        latencyMs: fc.integer({ min: 0, max: 25 }),
        maxTokens: fc.integer({ min: 1, max: 4 }),
        used: fc.integer({ min: 0, max: 10 }),
      })
      .map((c) => ({ ...c, used: Math.min(c.used, Math.ceil(c.maxTokens * maxUsedFactor)) })),
    { minLength: 1, maxLength: 10 },
  )

describe('cost cap under concurrency, over random schedules', () => {
  it('never starts a call at the cap, and overshoots by at most the calls already in flight', async () => {
    await fc.assert(
      fc.asyncProperty(schedule(2.5), fc.integer({ min: 1, max: 8 }), async (calls, cap) => {
        const { events, spent, reachedServer } = await play(calls, cap, 'reference')
        // Every call that started reached the server; none that was refused did.
        const started = events.filter((e) => e.kind !== 'refused').map((e) => e.call)
        expect(new Set(reachedServer)).toEqual(new Set(events.filter((e) => e.kind === 'end').map((e) => e.call)))
        expect(reachedServer.every((c) => started.includes(c))).toBe(true)
        // The moment the spend first reached the cap, and the calls in flight then.
        const reachedAt = events.findIndex((e) => e.kind === 'end' && e.spent >= cap)
        if (reachedAt === -1) {
          expect(spent).toBeLessThan(cap)
          return
        }
        const inFlight = new Set(
          events
            .slice(0, reachedAt + 1)
            .filter((e) => e.kind === 'start')
            .map((e) => e.call),
        )
        for (const e of events.slice(0, reachedAt)) if (e.kind === 'end') inFlight.delete(e.call)
        const inFlightCost = events
          .filter((e): e is Extract<Event, { kind: 'end' }> => e.kind === 'end' && inFlight.has(e.call))
          .reduce((s, e) => s + e.cost, 0)
        expect(spent - cap).toBeLessThanOrEqual(inFlightCost + 1e-9)
        // Nothing started after that moment.
        expect(events.slice(reachedAt + 1).some((e) => e.kind === 'start')).toBe(false)
      }),
      { numRuns: 40 },
    )
  }, 60_000)

  it('with real costs within the reservation: under one call of overshoot ("reference"), none ("strict")', async () => {
    await fc.assert(
      fc.asyncProperty(schedule(1), fc.integer({ min: 1, max: 8 }), async (calls, cap) => {
        const reference = await play(calls, cap, 'reference')
        const biggest = Math.max(...calls.map((c) => c.used))
        expect(reference.spent).toBeLessThan(cap + Math.max(biggest, 1e-9) + 1e-9)
        const strict = await play(calls, cap, 'strict')
        expect(strict.spent).toBeLessThanOrEqual(cap)
      }),
      { numRuns: 30 },
    )
  }, 60_000)
})
