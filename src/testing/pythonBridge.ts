/**
 * Finds the repo's Python venv (.venv, made by scripts/test-all.sh) and
 * spawns `redscope-bridge serve` from it, for tests that run the Python side.
 * Without the venv those tests are skipped, visibly, unless
 * REDSCOPE_REQUIRE_PYTHON=1 (test-all.sh sets it): then a missing venv fails.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
export const VENV_BIN = join(REPO_ROOT, '.venv', 'bin')

export function venvHas(program: string): boolean {
  return existsSync(join(VENV_BIN, program))
}

/** True when the Python tests should run; throws when they are required and cannot. */
export function pythonBridgeAvailable(): boolean {
  const ok = venvHas('redscope-bridge') && venvHas('python')
  if (!ok && process.env.REDSCOPE_REQUIRE_PYTHON === '1') {
    throw new Error(`REDSCOPE_REQUIRE_PYTHON=1 but ${VENV_BIN}/redscope-bridge is missing: run bash scripts/test-all.sh (it makes .venv)`)
  }
  return ok
}

export interface SpawnedServer {
  readonly url: string
  readonly child: ChildProcess
  /** What the process wrote on stderr so far (its request log and errors). */
  stderr(): string
  close(): Promise<void>
}

/** The environment a Python child gets: no network fetch by litellm at import. */
export function pythonEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, LITELLM_LOCAL_MODEL_COST_MAP: 'True', PYTHONUNBUFFERED: '1', ...extra }
}

/**
 * Spawns a venv program that prints a line matching `ready` (group 1: the URL)
 * once it listens, and resolves with that URL. Rejects with its stderr if it exits first.
 */
export function spawnVenv(
  program: string,
  args: readonly string[],
  ready: RegExp,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<SpawnedServer> {
  const child = spawn(join(VENV_BIN, program), args, { cwd: REPO_ROOT, env: pythonEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      void close()
      reject(new Error(`${program} ${args.join(' ')} did not start within ${options.timeoutMs ?? 90_000} ms; stderr: ${err}`))
    }, options.timeoutMs ?? 90_000)
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = ready.exec(out)
      if (m) {
        clearTimeout(timer)
        resolveUrl({ url: m[1], child, stderr: () => err, close })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${program} ${args.join(' ')} exited ${code} before it was ready; stderr: ${err}`))
    })
  })
}

/** `redscope-bridge serve SPEC ...`, resolved with its base URL. */
export function spawnBridge(spec: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<SpawnedServer> {
  return spawnVenv('redscope-bridge', ['serve', spec, '--port', '0', ...args], /serving \S+ at (http:\/\/\S+) /, { env })
}

/** `redscope-bridge serve --optimizer ...` without a target, resolved with its base URL. */
export function spawnBridgeOptimizers(args: readonly string[], env: Record<string, string> = {}): Promise<SpawnedServer> {
  return spawnVenv('redscope-bridge', ['serve', '--port', '0', ...args], /serving \S+ at (http:\/\/\S+) /, { env })
}
