import fc from 'fast-check'
import { buildDomain, distinctCombinations, type Forest } from '../tags'
import { selectionOf, type SelectedModel, type SweepPick } from './select'
import { ownerOf, parseShard, shardFromEnv, shardItems, shardOf, shardSize, ShardError, type Indexed } from './shard'

const range = (n: bigint): Indexed<bigint> => ({ count: n, at: (r) => r })
const all = <T>(x: Indexed<T>): T[] => {
  const out: T[] = []
  for (let k = 0n; k < x.count; k++) out.push(x.at(k))
  return out
}

describe('shards of an indexed collection', () => {
  it(
    'N shards cover every rank exactly once, each balanced within one, whatever order they are taken in',
    () =>
      fc.assert(
        fc.property(
          fc.bigInt({ min: 0n, max: 500n }),
          fc.integer({ min: 1, max: 40 }).chain((n) =>
            fc.shuffledSubarray(
              Array.from({ length: n }, (_, i) => i),
              { minLength: n, maxLength: n },
            ),
          ),
          (total, order) => {
            const n = order.length
            // Workers start in any order: the shards are taken in a random permutation.
            const owner = new Map<bigint, number>()
            const sizes: number[] = []
            let overlaps = 0
            let misowned = 0
            for (const i of order) {
              const mine = all(shardItems(range(total), shardOf(i, n)))
              expect(BigInt(mine.length)).toBe(shardSize(total, shardOf(i, n)))
              sizes.push(mine.length)
              for (const r of mine) {
                if (owner.has(r)) overlaps++
                if (ownerOf(r, n) !== i) misowned++
                owner.set(r, i)
              }
            }
            expect(overlaps).toBe(0)
            expect(misowned).toBe(0)
            expect(owner.size).toBe(Number(total))
            expect([...owner.keys()].every((r) => r >= 0n && r < total)).toBe(true)
            expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
          },
        ),
        { numRuns: 150 },
      ),
    30_000,
  )

  it('a shard is stable: the same (I, N) always takes the same ranks, in increasing order', () => {
    expect(all(shardItems(range(10n), shardOf(1, 4)))).toEqual([1n, 5n, 9n])
    expect(all(shardItems(range(10n), shardOf(3, 4)))).toEqual([3n, 7n])
    expect(all(shardItems(range(2n), shardOf(3, 4)))).toEqual([])
    expect(all(shardItems(range(351_974n), shardOf(7, 8))).length).toBe(43_996)
  })

  it('works on a huge collection without enumerating it', () => {
    const huge = range(10n ** 30n)
    const mine = shardItems(huge, shardOf(2, 3))
    expect(mine.count).toBe((10n ** 30n - 2n + 2n) / 3n)
    expect(mine.at(mine.count - 1n) % 3n).toBe(2n)
  })
})

/** Random forests: each tag's parent is an earlier tag or none. */
const arbForest: fc.Arbitrary<Forest> = fc
  .array(fc.option(fc.nat(), { nil: null, freq: 3 }), { minLength: 1, maxLength: 9 })
  .map((parents) => ({
    tags: parents.map((p, i) => ({ name: `t${i}`, parent: p === null || i === 0 ? null : `t${p % i}`, description: '' })),
  }))

const key = (m: Pick<SelectedModel, 'scope' | 'readOnly'>) => `${[...m.scope].sort().join(',')}|${[...m.readOnly].sort().join(',')}`

describe('shards of a sweep selection', () => {
  const arbCase = arbForest.chain((forest) => {
    const names = forest.tags.map((t) => t.name)
    const total = distinctCombinations(buildDomain(forest)).length
    const pick: fc.Arbitrary<SweepPick> = fc.oneof(
      fc.constant<SweepPick>({ kind: 'all' }),
      fc.subarray(names, { minLength: 1, maxLength: Math.min(2, names.length) }).map((tags): SweepPick => ({ kind: 'containing', tags })),
      fc
        .array(fc.tuple(fc.nat(total - 1), fc.nat(total - 1)), { minLength: 1, maxLength: 4 })
        .map((pairs): SweepPick => ({ kind: 'ranges', ranges: pairs.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`).join(',') })),
      fc
        .array(fc.record({ scope: fc.subarray(names, { minLength: 1 }), readOnly: fc.subarray(names) }), { minLength: 1, maxLength: 12 })
        .map((models): SweepPick => ({ kind: 'list', models })),
    )
    return fc.tuple(fc.constant(forest), pick, fc.integer({ min: 1, max: 7 }))
  })

  it(
    'the union of the shards is exactly the selection, no overlap, balanced within one',
    () =>
      fc.assert(
        fc.property(arbCase, ([forest, pick, n]) => {
          const selection = selectionOf(buildDomain(forest), pick)
          const whole = all(selection).map(key)
          const parts = Array.from({ length: n }, (_, i) => all(shardItems(selection, shardOf(i, n))).map(key))
          const union = parts.flat()
          expect(new Set(union).size).toBe(union.length)
          expect([...union].sort()).toEqual([...whole].sort())
          const sizes = parts.map((p) => p.length)
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
        }),
        { numRuns: 150 },
      ),
    30_000,
  )
})

describe('naming a shard', () => {
  it('parses I/N, numbered from 0', () => {
    expect(parseShard('0/4')).toEqual({ index: 0, count: 4 })
    expect(parseShard(' 3 / 4 ')).toEqual({ index: 3, count: 4 })
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 })
  })

  it('refuses what is not a shard, saying how shards are numbered', () => {
    expect(() => parseShard('4/4')).toThrow(
      /4 is not a shard of 4; it must be 0 to 3 \(shards are numbered from 0: 4 shards are 0\/4 to 3\/4\)/,
    )
    expect(() => parseShard('1-4')).toThrow(/write the shard as I\/N/)
    expect(() => parseShard('0/0')).toThrow(/number of shards must be a whole number from 1/)
    expect(() => parseShard('-1/4')).toThrow(ShardError)
  })

  it('reads the index from an environment variable (an Indexed Job sets JOB_COMPLETION_INDEX)', () => {
    expect(shardFromEnv('JOB_COMPLETION_INDEX', '2', 4)).toEqual({ index: 2, count: 4 })
    expect(() => shardFromEnv('JOB_COMPLETION_INDEX', undefined, 4)).toThrow(/JOB_COMPLETION_INDEX is not set/)
    expect(() => shardFromEnv('JOB_COMPLETION_INDEX', 'two', 4)).toThrow(/JOB_COMPLETION_INDEX=two: not a whole number/)
    expect(() => shardFromEnv('JOB_COMPLETION_INDEX', '4', 4)).toThrow(/JOB_COMPLETION_INDEX=4: 4 is not a shard of 4/)
    expect(() => shardFromEnv('I', '0', 0)).toThrow(/--shards/)
  })
})
