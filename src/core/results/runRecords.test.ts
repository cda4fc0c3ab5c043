/**
 * What results record beyond superred's schema: a cost with no price stays "unpriced" (never a $0 read as
 * measured) and each run says why it ended (target, attacker's decline, its turn limit, time cap, error).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { scopeOf } from '../tags'
import { CostCappedLLMClient } from '../engine/budget'
import { Controller } from '../engine/controller'
import {
  injection,
  noInjection,
  observableEvent,
  plainResponse,
  preCallEvent,
  runEndResponse,
  turnLimitDecline,
  type Event,
  type EventResponse,
} from '../engine/events'
import type { Emit, SendEvent } from '../engine/target'
import { BaseOptimizer } from '../engine/optimizer'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { addUsage, subtractUsage } from '../engine/types'
import { costWords, sumUnpriced } from './cost'
import { MemoryStorage } from './memoryStorage'
import { listExperiments, readExperiment, readTasks } from './reader'
import { runEndsSummary, runEndWords } from './runEndWords'

/** Asks for the next user message after each answer until one is declined (superred's ChatbotTarget's shape). */
class Conversation extends StubTarget {
  override async run(emit: Emit, sendEvent: SendEvent): Promise<void> {
    const userMsg = this.getControllables().find((c) => c.name === 'user_msg')!
    for (;;) {
      const r = await sendEvent(preCallEvent(userMsg, 'next user message'))
      if (r.type !== 'ControllableInjection') return
      emit(observableEvent(this.observableNamed('model_output'), 'no'))
    }
  }
}

/** Calls its model at each pause; declines the third turn at its limit, or (goal "declines") the second by choice. */
class TwoTurns extends BaseOptimizer {
  private turn = 0
  async onEvent(event: Event): Promise<EventResponse> {
    if (event.type === 'RunStartEvent') {
      this.turn = 0
      return plainResponse(event)
    }
    if (event.type === 'RunEndEvent') return runEndResponse(event)
    if (event.type !== 'ControllablePreCallEvent' && event.type !== 'ControllablePostCallEvent') return plainResponse(event)
    this.turn += 1
    if (this.goalDescription === 'declines' && this.turn === 2) return noInjection(event)
    if (this.turn > 2) return turnLimitDecline(event)
    await this.llm.complete([{ role: 'user', content: 'go' }])
    return injection(event, 'hi')
  }
}

const local = { chat: async () => ({ content: 'hi', model: 'local-model', usage: { promptTokens: 10, completionTokens: 3 } }) }

async function runTree(priced: boolean) {
  const forest = stubForest()
  const storage = new MemoryStorage()
  const controller = new Controller({
    optimizerFactory: () => new TwoTurns(),
    targetFactory: targetFactory(() => new Conversation(forest)),
    securityClaim: SecurityClaim.fromTasks([
      new ScriptedTask('limit', () => fixtureEvaluation(forest)),
      new ScriptedTask('declines', () => fixtureEvaluation(forest)),
    ]),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 2,
    storage,
    resultsDir: 'r',
    llmConfig: { model: 'local-model', apiBase: 'http://127.0.0.1:1/v1' },
    // The billing the CLI and the browser set up for a model with no price: an empty one-row table.
    llmClientFactory: (config, cap, signal) =>
      new CostCappedLLMClient({
        model: config.model,
        backend: local,
        costCapUsd: cap,
        signal,
        priceTable: priced ? { 'local-model': { inputPerMillion: 1000, outputPerMillion: 1000 } } : {},
      }),
  })
  return { storage, result: await controller.run() }
}

describe('run records', () => {
  it("records an unpriced model's calls as unpriced, with their tokens, and why each run ended", async () => {
    const { storage, result } = await runTree(false)
    const [limit, declines] = result.taskResults
    expect(limit.llmUsage).toEqual({ calls: 4, cost: 0, unpriced: { calls: 4, promptTokens: 40, completionTokens: 12 } })
    expect(limit.runs.map((r) => r.ending)).toEqual([
      { cause: 'turn_limit', turns: 3 },
      { cause: 'turn_limit', turns: 3 },
    ])
    expect(declines.runs.map((r) => r.ending?.cause)).toEqual(['declined', 'declined'])

    const exp = await readExperiment(storage, result.resultsDir!)
    // superred's own fields stay numbers: the priced calls' dollars (none here).
    expect(exp.manifest.summary.total_llm_usage).toEqual({ calls: 6, cost: 0 })
    expect([...exp.unpriced]).toEqual([
      [1, { calls: 4, prompt_tokens: 40, completion_tokens: 12 }],
      [2, { calls: 2, prompt_tokens: 20, completion_tokens: 6 }],
    ])
    const [row] = await listExperiments(storage, 'r')
    expect(row.unpriced).toEqual({ calls: 6, prompt_tokens: 60, completion_tokens: 18 })
    const [t1, t2] = await readTasks(storage, result.resultsDir!)
    expect(t1.task.llm_usage).toEqual({ calls: 4, cost: 0 })
    expect(t1.runRecords).toEqual({
      schema_version: 5,
      unpriced: { calls: 4, prompt_tokens: 40, completion_tokens: 12 },
      runs: [
        { run_number: 1, ended_by: 'turn_limit', turns: 3, unpriced: { calls: 2, prompt_tokens: 20, completion_tokens: 6 } },
        { run_number: 2, ended_by: 'turn_limit', turns: 3, unpriced: { calls: 2, prompt_tokens: 20, completion_tokens: 6 } },
      ],
    })
    expect(t2.runRecords!.runs.map((r) => [r.ended_by, r.turns])).toEqual([
      ['declined', 2],
      ['declined', 2],
    ])
    expect(costWords(t1.task.llm_usage.cost, t1.runRecords!.unpriced, { calls: t1.task.llm_usage.calls })).toBe(
      'unpriced (4 calls, 40 tokens in, 12 out)',
    )
  })

  it('leaves a priced run as it was: no unpriced file, dollars only', async () => {
    const { storage, result } = await runTree(true)
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.unpriced.size).toBe(0)
    expect(await storage.exists(`${result.resultsDir}/unpriced.json`)).toBe(false)
    const [t1] = await readTasks(storage, result.resultsDir!)
    expect(t1.runRecords!.unpriced).toBeNull()
    expect(t1.task.llm_usage.cost).toBeCloseTo(4 * 0.013)
    expect(costWords(t1.task.llm_usage.cost, t1.runRecords!.unpriced)).toBe('$0.0520')
  })

  it('totals over priced and unpriced say both, never one sum', () => {
    const total = sumUnpriced([null, { calls: 2, prompt_tokens: 1200, completion_tokens: 30 }, undefined])
    expect(costWords(0.0123, total, { calls: 5 })).toBe('$0.0123 + unpriced (2 calls, 1,200 tokens in, 30 out)')
    expect(costWords(0, total, { calls: 2 })).toBe('unpriced (2 calls, 1,200 tokens in, 30 out)')
    expect(costWords(0.0123, null)).toBe('$0.0123')
    const a = { calls: 3, cost: 0.5, unpriced: { calls: 1, promptTokens: 5, completionTokens: 1 } }
    expect(subtractUsage(addUsage(a, a), a)).toEqual(a)
    expect(subtractUsage(a, a)).toEqual({ calls: 0, cost: 0 })
  })

  it('says why runs ended in words', () => {
    expect(runEndWords('turn_limit')).toBe('turn limit')
    expect(runEndWords('turn_limit', 11, true)).toBe("ended by the attacker's turn limit after 10 turns (it declined the rest)")
    expect(runEndWords('target', 3, true)).toBe('the target finished the run after 3 turns')
    expect(runEndWords(null)).toBe('not recorded')
    expect(runEndsSummary(['target', 'turn_limit', 'turn_limit', null])).toBe('2 turn limit, 1 target finished')
  })

  it('still reads a tree superred wrote, which has neither extra', async () => {
    const fixture = new NodeFsStorage(join(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'superred-results-example'))
    const [row] = await listExperiments(fixture)
    expect(row.unpriced).toBeUndefined()
    const exp = await readExperiment(fixture, row.dir)
    expect(exp.unpriced.size).toBe(0)
    const [task] = await readTasks(fixture, row.dir)
    expect(task.runRecords).toBeNull()
    expect(costWords(task.task.llm_usage.cost, exp.unpriced.get(1))).toBe('$0.0000')
  })
})
