/**
 * `node bin/redscope.mjs ...` as separate processes, as a user (or a
 * Kubernetes pod) runs them: one command to its end (`runCli`), or several at
 * once for the tests and benches that need them (`CliProcesses`). Every process started through a group is stopped by `stopAll`,
 * which a test calls in afterAll, so nothing outlives it, also on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const BIN = join(ROOT, 'bin', 'redscope.mjs')

export interface CliOutcome {
  /** The exit code, null when killed by a signal. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** One command, run to its end, with its exit code and both streams. */
export function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

export interface CliProcess {
  readonly child: ChildProcess
  readonly args: readonly string[]
  /** Everything printed so far. */
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>
  /** Resolves with the first stdout line matching, or rejects when the process ends first or `ms` pass. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>
}

export class CliProcesses {
  private readonly running = new Set<ChildProcess>()

  start(args: readonly string[], env: Readonly<Record<string, string>> = {}): CliProcess {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    this.running.add(child)
    let out = ''
    let err = ''
    const listeners = new Set<() => void>()
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      for (const l of listeners) l()
    })
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        this.running.delete(child)
        for (const l of listeners) l()
        resolve(code)
      }),
    )
    const waitFor = (pattern: RegExp, ms = 30_000) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(
          () => done(new Error(`no line matching ${pattern} within ${ms} ms from redscope ${args.join(' ')}\n${out}\n${err}`)),
          ms,
        )
        const check = () => {
          const m = pattern.exec(out)
          if (m) return done(null, m)
          if (child.exitCode !== null || child.signalCode !== null)
            done(new Error(`redscope ${args.join(' ')} ended before printing ${pattern}\n${out}\n${err}`))
        }
        const done = (e: Error | null, m?: RegExpExecArray) => {
          clearTimeout(timer)
          listeners.delete(check)
          if (e) reject(e)
          else resolve(m!)
        }
        listeners.add(check)
        check()
      })
    return { child, args, stdout: () => out, stderr: () => err, exited, waitFor }
  }

  /** Stops every process still running: SIGTERM, then SIGKILL after `graceMs`. */
  async stopAll(graceMs = 3000): Promise<void> {
    const left = [...this.running]
    await Promise.all(
      left.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve()
            const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
            child.once('close', () => {
              clearTimeout(timer)
              resolve()
            })
            child.kill('SIGTERM')
          }),
      ),
    )
  }
}
