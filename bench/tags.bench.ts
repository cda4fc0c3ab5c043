import {
  buildDomain,
  CombinationCursor,
  countCombinations,
  distinctCombinations,
  type Forest,
  type SecurityDomain,
  AGENTDOJO_FOREST,
} from '../src/core/tags'
import { heapMb, median, row, time } from './util'

/** A deterministic random forest: each tag hangs under an earlier one or starts a new root. */
function randomForest(size: number, seed: number): Forest {
  let s = seed
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  return {
    tags: Array.from({ length: size }, (_, i) => ({
      name: `t${i}`,
      parent: i === 0 || rand() < 0.02 ? null : `t${Math.floor(rand() * i)}`,
      description: '',
    })),
  }
}

/** Visits every combination with a cursor (nothing built); returns how many. */
function walk(domain: SecurityDomain): number {
  const cursor = new CombinationCursor(domain)
  let n = 0
  while (cursor.next()) n++
  return n
}

export default async function bench(): Promise<void> {
  const dojo = buildDomain(AGENTDOJO_FOREST)
  row('forest', 'combinations', 'count ms', 'enumerate ms', 'heap Δ MB')
  const countMs = await median(20, () => countCombinations(dojo))
  const before = heapMb()
  const { ms: enumMs, value } = await time(() => distinctCombinations(dojo))
  row('AgentDojo (guide, travel leaf)', value.length, countMs, enumMs, heapMb() - before)
  row('  the same walked by a cursor (nothing built)', walk(dojo), '', await median(9, () => walk(dojo)), '')

  for (const size of [1_000, 10_000]) {
    const domain = buildDomain(randomForest(size, size))
    const count = countCombinations(domain)
    const ms = await median(5, () => countCombinations(domain))
    const digits = count.toString().length
    // Enumeration only where the list fits in memory (< 5 million arrays).
    const enumerable = count < 5_000_000n
    const e = enumerable ? (await time(() => distinctCombinations(domain))).ms : NaN
    row(`random forest of ${size} tags`, `${digits}-digit count`, ms, enumerable ? e : 'too many to hold', '')
  }
  const chain = buildDomain({
    tags: Array.from({ length: 10_000 }, (_, i) => ({ name: `c${i}`, parent: i ? `c${i - 1}` : null, description: '' })),
  })
  row(
    'chain of 10,000 tags',
    (await time(() => distinctCombinations(chain))).value.length,
    await median(5, () => countCombinations(chain)),
    (await time(() => distinctCombinations(chain))).ms,
    '',
  )
  const buildMs = await median(5, () => buildDomain(randomForest(10_000, 7)))
  row('build + validate a 10,000-tag forest', '', buildMs, '', '')
}
