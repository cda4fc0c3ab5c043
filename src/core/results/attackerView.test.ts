/**
 * The attacker's view is stored once (in run_NNNNN.json) and derived on read. These cases run the real Controller
 * into a tree and check, event by event, that the derived view is what the optimizer was sent: every grant shape the
 * engine's scope tests and the results conformance case cover (read-only, a descendant granted, an ancestor granted,
 * read-only only, per-task resolvers, declines by the optimizer, several runs and tasks).
 */
import { describe, expect, it } from 'vitest'
import { scopeOf, SecurityDomainTag } from '../tags'
import { Controller, type ControllerOptions } from '../engine/controller'
import { isResponse, type Event, type EventResponse, type TrajectoryItem } from '../engine/events'
import { NotApplicable, SecurityClaim, targetFactory } from '../engine/target'
import {
  fixtureEvaluation,
  ScriptedOptimizer,
  ScriptedTask,
  StubTarget,
  stubForest,
  type OptimizerScript,
  type StubForest,
} from '../engine/testkit'
import type { ReadableTrajectory } from '../engine/events'
import { readAttackerView } from './attackerView'
import { MemoryStorage } from './memoryStorage'
import { readExperiment, readTasks, readTrajectory } from './reader'

/** What one optimizer was sent, per run: each event as it arrived, and at the run's end the whole view it was handed. */
class Witness extends ScriptedOptimizer {
  readonly runs: Array<{ events: Event[]; view: readonly TrajectoryItem[] }> = []
  private handed: ReadableTrajectory | null = null

  override async onEvent(event: Event): Promise<EventResponse> {
    if (event.type === 'RunStartEvent') {
      this.handed = event.trajectory
      this.runs.push({ events: [], view: [] })
    } else {
      this.runs.at(-1)!.events.push(event)
    }
    // The RunEndEvent is on the view before it is sent (its response is recorded nowhere, as in superred).
    if (event.type === 'RunEndEvent') this.runs.at(-1)!.view = this.handed!.snapshot()
    return super.onEvent(event)
  }
}

/** A persisted item or an engine item, as one comparable line. */
function lineOfFile(item: Record<string, unknown>): string {
  if (item.kind === 'event') return `${item.type as string} ${item.event_id as string}`
  const c = item.controllable
  const name = typeof c === 'string' ? c : ''
  return `${item.type as string} ${name} ${(item.declined_by as string | undefined) ?? ''} ${JSON.stringify(item.value ?? null)}`
}

function lineOfItem(item: TrajectoryItem): string {
  if (!isResponse(item)) return `${item.type} ${item.eventId}`
  const name = 'controllable' in item ? item.controllable.name : ''
  const declined = item.type === 'ControllableNoInjection' ? (item.declinedBy ?? '') : ''
  return `${item.type} ${name} ${declined} ${JSON.stringify(item.type === 'ControllableInjection' ? item.value : null)}`
}

interface Case {
  readonly name: string
  readonly grant: (f: StubForest) => Pick<ControllerOptions, 'scope'> & Partial<ControllerOptions>
  readonly goals?: readonly string[]
  readonly script?: OptimizerScript
}

const CASES: readonly Case[] = [
  {
    name: 'the results conformance case: scope user, read_only system',
    grant: (f) => ({ scope: scopeOf([f.user]), readOnly: scopeOf([f.system]) }),
  },
  { name: 'read-only controllables and observables', grant: (f) => ({ scope: scopeOf([f.user]), readOnly: scopeOf([f.system, f.web]) }) },
  { name: 'an ancestor granted covers its descendants', grant: (f) => ({ scope: scopeOf([f.system]) }) },
  { name: 'write inside read_only', grant: (f) => ({ scope: scopeOf([f.systemPrompt]), readOnly: scopeOf([f.system]) }) },
  { name: 'read_only inside the write subtree', grant: (f) => ({ scope: scopeOf([f.system]), readOnly: scopeOf([f.systemPrompt]) }) },
  { name: 'read-only only', grant: (f) => ({ scope: new Set(), readOnly: scopeOf([f.user, f.inbox]) }) },
  { name: 'everything granted', grant: (f) => ({ scope: scopeOf([f.system, f.user, f.inbox, f.model, f.web]) }) },
  {
    name: 'per-task resolvers',
    goals: ['a', 'b', 'c'],
    grant: (f) => ({
      scope: (task) => (task.goal.description === 'b' ? new Set() : scopeOf([task.goal.description === 'a' ? f.user : f.inbox])),
      readOnly: (task) => {
        if (task.goal.description === 'a') throw new NotApplicable()
        return scopeOf([f.system])
      },
      scopeLabel: 'per-task',
    }),
  },
  {
    name: 'the optimizer declines some pauses',
    grant: (f) => ({ scope: scopeOf([f.user, f.inbox]), readOnly: scopeOf([f.model]) }),
    script: {
      inject: (event, run) => (run % 2 === 0 && event.controllable.name === 'inbox_email' ? null : `INJ:${event.controllable.name}`),
    },
  },
]

async function runCase(c: Case) {
  const forest = stubForest()
  const storage = new MemoryStorage()
  const witnesses: Witness[] = []
  const goals = c.goals ?? ['leak the secret', 'and again']
  const controller = new Controller({
    optimizerFactory: () => {
      const w = new Witness(c.script)
      witnesses.push(w)
      return w
    },
    targetFactory: targetFactory(() => new StubTarget(forest)),
    securityClaim: SecurityClaim.fromTasks(goals.map((g) => new ScriptedTask(g, (run) => fixtureEvaluation(forest, false, run / 10)))),
    maxRunsPerTask: 3,
    storage,
    ...c.grant(forest),
  })
  const result = await controller.run()
  return { storage, witnesses, result }
}

describe('the attacker view derived on read is what the optimizer was sent', () => {
  it.each(CASES)('$name', async (c) => {
    const { storage, witnesses, result } = await runCase(c)
    const [experiment] = (await storage.list('')).filter((e) => e.kind === 'dir')
    expect((await readExperiment(storage, experiment.name)).domain).not.toBeNull()
    const tasks = await readTasks(storage, experiment.name)
    expect(tasks.length).toBe(result.taskResults.length)
    expect(witnesses.length).toBe(tasks.length)
    let compared = 0
    for (const [t, task] of tasks.entries()) {
      const sent = witnesses[t].runs
      expect(sent.length).toBe(task.task.n_runs)
      for (const [r, run] of sent.entries()) {
        // Stored once: no attacker file beside the run.
        expect(await readTrajectory(storage, task.dir, r + 1, 'attacker')).toBeNull()
        const view = await readAttackerView(storage, task.dir, r + 1)
        expect(view!.source).toBe('derived')
        const derived = view!.file.trajectory.map((i) => lineOfFile(i as Record<string, unknown>))
        // The whole view the optimizer was handed, item by item, in order ...
        expect(derived).toEqual(run.view.map(lineOfItem))
        // ... the engine's own record of it ...
        expect(derived).toEqual(result.taskResults[t].runs[r].attackerView.map(lineOfItem))
        // ... and every event it was sent is there, in the order it came.
        const eventLines = run.events.map(lineOfItem)
        expect(derived.filter((l) => eventLines.includes(l))).toEqual(eventLines)
        compared += derived.length
      }
    }
    expect(compared).toBeGreaterThan(0)
  })

  it('keeps the attacker file where names cannot rebuild the view (a look-alike tag), and reads it', async () => {
    const lookalike = new SecurityDomainTag('user')
    const { storage, witnesses } = await runCase({ name: 'look-alike', grant: () => ({ scope: scopeOf([lookalike]) }) })
    const tasks = await readTasks(storage, (await storage.list('')).find((e) => e.kind === 'dir')!.name)
    const view = await readAttackerView(storage, tasks[0].dir, 1)
    expect(view!.source).toBe('attacker-file')
    expect(view!.file.trajectory.map((i) => lineOfFile(i as Record<string, unknown>))).toEqual(witnesses[0].runs[0].view.map(lineOfItem))
    // The look-alike matches none of the target's tags: the optimizer saw its run end and nothing else.
    expect(view!.file.trajectory.map((i) => i.type)).toEqual(['RunEndEvent'])
  })

  it('reads an older tree that has the attacker file: the file wins', async () => {
    const { storage } = await runCase(CASES[0])
    const tasks = await readTasks(storage, (await storage.list('')).find((e) => e.kind === 'dir')!.name)
    const older = { schema_version: 5, run_number: 1, trajectory: [] }
    await storage.writeTextAtomic(`${tasks[0].dir}/trajectories/run_00001.attacker.json`, JSON.stringify(older))
    const view = await readAttackerView(storage, tasks[0].dir, 1)
    expect(view).toEqual({ file: older, source: 'attacker-file' })
  })

  it("derives nothing for a tree without domain.json (superred's own): the viewer recomputes by names", async () => {
    const { storage } = await runCase(CASES[0])
    const [experiment] = (await storage.list('')).filter((e) => e.kind === 'dir')
    await storage.remove(`${experiment.name}/domain.json`)
    const tasks = await readTasks(storage, experiment.name)
    expect(await readAttackerView(storage, tasks[0].dir, 1)).toBeNull()
  })
})
