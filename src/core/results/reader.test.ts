import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { MemoryStorage } from './memoryStorage'
import { listExperiments, readExperiment, readTasks, readTrajectory, ResultsFormatError } from './reader'

const fixture = new NodeFsStorage(join(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'superred-results-example'))

describe('reader on a tree superred wrote', () => {
  it('opens the fixture: index, manifest, result, tasks, iterations, trajectories', async () => {
    const [row] = await listExperiments(fixture)
    expect(row).toMatchObject({ dir: 'scripted__stub-agent__leak__no-llm-44a31aa2', hash: '44a31aa2', status: 'complete' })
    const exp = await readExperiment(fixture, row.dir)
    expect(exp.domain).toBeNull() // a plain superred tree has no forest
    expect(exp.result?.summary.max_primary_score).toBe(0.5)
    const [task] = await readTasks(fixture, row.dir)
    expect(task.task).toMatchObject({ goal: 'leak the secret', goal_hash: 'ff6592b23aafc0ca', status: 'failed', n_runs: 2 })
    expect(task.attacker).toBeNull()
    expect(task.iterations!.runs.map((r) => r.trajectory)).toEqual(['trajectories/run_00001.json', 'trajectories/run_00002.json'])
    const run = await readTrajectory(fixture, task.dir, 1)
    expect(run!.trajectory).toHaveLength(14)
    expect(run!.trajectory[1]).toEqual({
      kind: 'response',
      type: 'ControllableNoInjection',
      controllable: 'sys_prompt',
      declined_by: 'scope',
    })
    expect(run!.trajectory.at(-1)).toMatchObject({ type: 'RunEndEvent', security_domain: 'system' })
    expect(await readTrajectory(fixture, task.dir, 1, 'attacker')).toBeNull()
  })
})

describe('reader tolerance', () => {
  const v4 = {
    schema_version: 4,
    run_number: 1,
    future_field: { anything: true },
    trajectory: [
      {
        kind: 'event',
        type: 'ControllablePreCallEvent',
        event_id: 'e',
        timestamp: 't',
        security_domain: 'user',
        controllable: { name: 'c', security_domain: 'user' },
        request: 'r',
        extra: 1,
      },
      { kind: 'response', type: 'ControllableNoInjection', controllable: 'c' },
      { kind: 'event', type: 'SomeFutureEvent', event_id: 'f', payload: [1, 2] },
    ],
  }

  it('accepts schema 4 (declined_by unknown, not "optimizer"), unknown fields and unknown item types', async () => {
    const s = new MemoryStorage()
    await s.writeTextAtomic('t/trajectories/run_00001.json', JSON.stringify(v4))
    const run = await readTrajectory(s, 't', 1)
    expect(run!.trajectory[1]).toEqual({ kind: 'response', type: 'ControllableNoInjection', controllable: 'c', declined_by: null })
    expect(run!.trajectory[0]).toMatchObject({ controllable: { description: '', value_type: 'text' } })
    expect(run!.trajectory[2]).toMatchObject({ type: 'SomeFutureEvent', payload: [1, 2] })
  })

  it('names the file and the problem when a file does not parse', async () => {
    const s = new MemoryStorage()
    await s.writeTextAtomic('t/trajectories/run_00001.json', JSON.stringify({ ...v4, schema_version: 3 }))
    await s.writeTextAtomic('t/trajectories/run_00002.json', '{ not json')
    await s.writeTextAtomic(
      't/trajectories/run_00003.json',
      JSON.stringify({ ...v4, trajectory: [{ kind: 'event', type: 'ControllablePreCallEvent' }] }),
    )
    await expect(readTrajectory(s, 't', 1)).rejects.toThrow(
      /t\/trajectories\/run_00001\.json: schema_version: schema_version is not one this reader knows/,
    )
    await expect(readTrajectory(s, 't', 2)).rejects.toThrow(ResultsFormatError)
    await expect(readTrajectory(s, 't', 3)).rejects.toThrow(/run_00003\.json: trajectory\.0/)
  })
})
