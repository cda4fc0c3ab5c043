/** Where a command writes. Injected so that commands are testable in-process. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** A failure the user must fix (bad flag, bad file): one line on stderr, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const EXIT_OK = 0
export const EXIT_FINDINGS = 1
export const EXIT_USAGE = 2
