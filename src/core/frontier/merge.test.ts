/**
 * Sharding a per-task frontier search by task and merging: the claim's
 * frontier computed from the shards' task frontiers equals brute force and
 * the unsharded search's, on both spaces (scope only, read-only grants).
 */
import fc from 'fast-check'
import { coverKey, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../lattice'
import { forestArb } from '../lattice/testForests'
import { buildDomain } from '../tags'
import { claimFrontierOfTasks, mergedEvaluations, shardTasks } from './merge'
import { searchFrontierSync } from './run'
import { bruteForce, keys, monotone } from './testOracles'

describe('a per-task search sharded by task, merged', () => {
  it('gives the claim the frontiers of brute force and of the unsharded search, and each task its own, on both spaces', () => {
    fc.assert(
      fc.property(
        forestArb(5),
        fc.boolean(),
        fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        (forest, readOnly, taskSeeds, shards) => {
          const base = new ThreatModelLattice(buildDomain(forest))
          const space: SearchSpace = readOnly ? new GrantLattice(base) : base
          const covers = Array.from(space.elements(), (c) => c.slice())
          const tasks = taskSeeds.map((s) => monotone(s.map((x) => covers[x % covers.length])))
          const observe = (c: Cover) => ({ runs: [tasks.map((t) => t(c))] })
          const opts = { taskCount: tasks.length }
          const unsharded = searchFrontierSync(space, observe, { ...opts, perTask: true })
          const parts = Array.from({ length: shards }, (_, i) =>
            searchFrontierSync(space, observe, { ...opts, questions: shardTasks(tasks.length, i, shards) }),
          )
          // Every task is searched by exactly one shard.
          expect(parts.flatMap((p) => p.tasks.map((t) => t.question)).sort()).toEqual(tasks.map((_, i) => i))
          expect(parts.every((p) => p.complete)).toBe(true)
          const perTask = parts.flatMap((p) => p.tasks).sort((a, b) => (a.question as number) - (b.question as number))
          const claim = claimFrontierOfTasks(perTask)
          const truth = bruteForce(covers, (c) => tasks.some((t) => t(c)))
          expect(keys(claim.minimalWins)).toEqual(truth.minimalWins)
          expect(keys(claim.maximalLosses)).toEqual(truth.maximalLosses)
          expect(keys(claim.minimalWins)).toEqual(keys(unsharded.claim.minimalWins))
          expect(keys(claim.maximalLosses)).toEqual(keys(unsharded.claim.maximalLosses))
          perTask.forEach((t, i) => expect(keys(t.minimalWins)).toEqual(keys(unsharded.tasks[i].minimalWins)))
          const merged = mergedEvaluations(parts.map((p) => p.evaluations))
          expect(new Set(merged.evaluations.map((e) => coverKey(e.cover))).size).toBe(merged.evaluations.length)
          expect(merged.contradictions).toEqual([])
        },
      ),
      { numRuns: 120 },
    )
  })

  it('shard I of N searches the tasks i with i mod N = I; a shard with none is done at once', () => {
    expect(shardTasks(5, 1, 2)).toEqual([1, 3])
    expect(shardTasks(2, 3, 4)).toEqual([])
    const base = new ThreatModelLattice(buildDomain({ tags: [{ name: 'a', parent: null, description: '' }] }))
    const answer = searchFrontierSync(base, () => ({ runs: [[true]] }), { taskCount: 1, questions: [] })
    expect(answer.evaluations).toEqual([])
    expect(answer.complete).toBe(true)
  })
})
