/** Frontier shards that cannot be merged (different searches, two different copies of one shard): nothing is written. */
export class FrontierMergeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FrontierMergeError'
  }
}
