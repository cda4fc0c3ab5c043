/** `redscope view` (or `npm start`'s script) in a child process, as a user starts it; stopped with SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process'

export interface RunningView {
  /** The address it printed. */
  readonly url: string
  readonly origin: string
  stop(): Promise<number | null>
}

export function startServer(script: string[], env: Record<string, string> = {}): Promise<RunningView> {
  const child: ChildProcess = spawn(process.execPath, script, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`no address within 90 s: ${out} ${err}`))
    }, 90_000)
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /at (http:\/\/\S+?)[;\s]/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ url: m[1], origin: new URL(m[1]).origin, stop })
      }
    })
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited ${code} before serving: ${err}`))
    })
  })
}

export const startView = (args: string[], env: Record<string, string> = {}) =>
  startServer(['bin/redscope.mjs', 'view', ...args, '--no-open'], env)
