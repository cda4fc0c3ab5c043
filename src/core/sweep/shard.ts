/**
 * Cutting an indexed collection (a sweep's selection, a frontier's candidates)
 * into N shards for N workers that never talk to each other.
 *
 * Shard I of N takes the ranks I, I+N, I+2N, ...: the assignment depends only
 * on (rank, N), so workers agree whatever order they start in, together they
 * cover every rank exactly once, and their sizes differ by at most one. Striding
 * rather than cutting blocks also spreads the reference order's structure (the
 * first root varies slowest, so a block would hold all the scopes that grant it)
 * evenly over the workers.
 *
 * Shards are numbered from 0, as Kubernetes numbers an Indexed Job's pods
 * (JOB_COMPLETION_INDEX runs 0..N-1).
 */

export interface Shard {
  /** 0-based: 0..count-1. */
  readonly index: number
  readonly count: number
}

/** Anything whose items can be had by rank: a Selection, an array view. */
export interface Indexed<T> {
  readonly count: bigint
  at(rank: bigint): T
}

/** The whole collection as one shard. */
export const WHOLE: Shard = Object.freeze({ index: 0, count: 1 })

export class ShardError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ShardError'
  }
}

const MAX_SHARDS = 1_000_000

function checkCount(count: number, where: string): void {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SHARDS) {
    throw new ShardError(`${where}: the number of shards must be a whole number from 1 to ${MAX_SHARDS.toLocaleString('en-US')}`)
  }
}

/** A checked shard; the message says what was wrong and how shards are numbered. */
export function shardOf(index: number, count: number, where = 'shard'): Shard {
  checkCount(count, where)
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    const hint = index === count ? ` (shards are numbered from 0: ${count} shards are 0/${count} to ${count - 1}/${count})` : ''
    throw new ShardError(`${where}: ${index} is not a shard of ${count}; it must be 0 to ${count - 1}${hint}`)
  }
  return { index, count }
}

const WHOLE_NUMBER = /^\s*(\d+)\s*$/

/** `I/N`, as in `--shard 2/4`. */
export function parseShard(text: string, where = '--shard'): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  if (!m) throw new ShardError(`${where} ${text}: write the shard as I/N, e.g. 0/4 for the first of four`)
  return shardOf(Number(m[1]), Number(m[2]), `${where} ${text}`)
}

/**
 * The shard an environment variable names, e.g. Kubernetes'
 * JOB_COMPLETION_INDEX, with the count given separately.
 */
export function shardFromEnv(variable: string, value: string | undefined, count: number): Shard {
  checkCount(count, '--shards')
  if (value === undefined || value.trim() === '') {
    throw new ShardError(
      `${variable} is not set: it should hold this worker's index, 0 to ${count - 1} (an Indexed Job sets JOB_COMPLETION_INDEX)`,
    )
  }
  const m = WHOLE_NUMBER.exec(value)
  if (!m) throw new ShardError(`${variable}=${value}: not a whole number; it should hold this worker's index, 0 to ${count - 1}`)
  return shardOf(Number(m[1]), count, `${variable}=${value.trim()}`)
}

export const shardText = (s: Shard) => `${s.index}/${s.count}`

/** The shard that runs a rank. */
export function ownerOf(rank: bigint, count: number): number {
  return Number(rank % BigInt(count))
}

/** How many of `total` ranks a shard takes: ⌈(total - I) / N⌉. */
export function shardSize(total: bigint, shard: Shard): bigint {
  const i = BigInt(shard.index)
  const n = BigInt(shard.count)
  return total <= i ? 0n : (total - i + n - 1n) / n
}

/** The ranks of a shard, in increasing order, as an indexed view: its k-th item is the collection's rank I + kN. */
export function shardItems<T>(items: Indexed<T>, shard: Shard): Indexed<T> {
  const count = shardSize(items.count, shard)
  const i = BigInt(shard.index)
  const n = BigInt(shard.count)
  return {
    count,
    at: (k) => {
      if (k < 0n || k >= count) throw new RangeError(`shard position ${k} is outside 0..${count - 1n}`)
      return items.at(i + k * n)
    },
  }
}
