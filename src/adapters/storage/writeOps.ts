/** What the results writer thread and the side that hands it writes (fsWriteThread) agree on. */

/** How a write is made: straight into place, by rename from a temp file, or a trajectory job printed there. */
export const WRITE_MODE = { plain: 0, atomic: 1, trajectories: 2 } as const

/** The thread's answer to a batch: every write up to `done` is made; those in `failed` with this error. */
export interface WriteReport {
  readonly done: number
  /** [id, message, code, syscall, path] */
  readonly failed: Array<[number, string, string | undefined, string | undefined, string | undefined]>
}
