/**
 * Engine figures: events per second through the Controller against a bare
 * loop doing the same awaits, and the time to write and read back a results
 * tree of 1,000 runs on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../src/adapters/storage/nodeFsStorage'
import { ExperimentSession, listExperiments, readAttackerView, readExperiment, readTasks, readTrajectory } from '../src/core/results'
import { bareLoop as bare, controllerFor as controllerOf } from './controllerShape'
import { heapMb, row, time } from './util'

const RUNS = 10_000
const CONTROLLABLES = 10

const controllerFor = (runs: number, tasks: number) => controllerOf(runs, tasks, CONTROLLABLES)
const bareLoop = () => bare(RUNS, CONTROLLABLES)

export default async function (): Promise<void> {
  const events = RUNS * CONTROLLABLES
  await controllerFor(200, 1).run() // warm-up
  await bareLoop()
  const controlled = await time(() => controllerFor(RUNS, 1).run())
  const bare = await time(bareLoop)
  row(
    'Controller: 10,000 runs × 10 controllables',
    `${controlled.ms.toFixed(0)} ms`,
    `${((events / controlled.ms) * 1000).toFixed(0)} events/s`,
  )
  row('bare loop, same awaits', `${bare.ms.toFixed(0)} ms`, `${((bare.value / bare.ms) * 1000).toFixed(0)} events/s`)
  row('Controller overhead (time ratio vs bare loop)', `${(controlled.ms / bare.ms).toFixed(1)}×`)
  row('heap after', `${heapMb().toFixed(0)} MB`)

  // A tree of 1,000 runs: 10 tasks × 100 runs, each run 21 items (plus the attacker view).
  const result = await controllerFor(100, 10).run()
  const dir = mkdtempSync(join(tmpdir(), 'redscope-bench-'))
  try {
    const storage = new NodeFsStorage(dir)
    const controller = controllerFor(100, 10)
    const written = await time(async () => {
      const session = await ExperimentSession.open(
        storage,
        '',
        controller.meta(10),
        result.taskResults.map((t) => t.task.goal.description),
      )
      for (const tr of result.taskResults) await session.publishTask(tr.index, tr)
      await session.finalize(result.startedAt, result.endedAt)
    })
    const read = await time(async () => {
      let items = 0
      for (const row of await listExperiments(storage)) {
        await readExperiment(storage, row.dir)
        for (const t of await readTasks(storage, row.dir)) {
          for (const it of t.iterations?.runs ?? []) {
            items += (await readTrajectory(storage, t.dir, it.run_number))!.trajectory.length
            items += (await readAttackerView(storage, t.dir, it.run_number))!.file.trajectory.length
          }
        }
      }
      return items
    })
    row('results tree, 1,000 runs: write (node fs)', `${written.ms.toFixed(0)} ms`, `${((1000 / written.ms) * 1000).toFixed(0)} runs/s`)
    row('results tree, 1,000 runs: read back + parse', `${read.ms.toFixed(0)} ms`, `${read.value} items`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
