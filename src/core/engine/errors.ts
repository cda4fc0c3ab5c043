/**
 * Error classes named after the Python exceptions the reference raises, so
 * messages and rationales ("Run 2 failed: ValueError: ...") read the same.
 */
export class EngineRuntimeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RuntimeError'
  }
}

/** Why a task's work stopped from outside: the wall-clock cap or the caller's AbortSignal. */
export class TaskCancelled extends Error {
  readonly why: 'timeout' | 'cancelled'
  constructor(why: 'timeout' | 'cancelled') {
    super(why === 'timeout' ? 'task_time_cap_s expired' : 'run cancelled')
    this.name = 'CancelledError'
    this.why = why
  }
}

/** `Type: message`, as Python's `f"{type(exc).__name__}: {exc}"`. */
export function describeError(error: unknown): string {
  if (isErrorLike(error)) return `${error.name}: ${error.message}`
  return `Error: ${String(error)}`
}

/** Errors from other realms (a DOMException from jsdom or a worker) fail `instanceof Error`. */
function isErrorLike(error: unknown): error is Error {
  return (
    error instanceof Error ||
    (typeof error === 'object' &&
      error !== null &&
      typeof (error as Error).name === 'string' &&
      typeof (error as Error).message === 'string')
  )
}

/** Type, message and stack, for `TaskResult.error` (the reference stores a formatted traceback). */
export function formatError(error: unknown): string {
  if (isErrorLike(error)) {
    const head = describeError(error)
    const stack = error.stack ?? ''
    // V8 stacks start with "Name: message"; keep one header and the frames.
    const frames = stack.split('\n').filter((line) => /^\s+at /.test(line))
    const cause = error.cause === undefined ? '' : `\n\nCaused by: ${formatError(error.cause)}`
    return [head, ...frames].join('\n') + cause
  }
  return describeError(error)
}
