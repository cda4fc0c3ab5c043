/**
 * The real superred as a bench baseline. Found through REDSCOPE_PYTHON (a
 * python with superred 0.3.0 installed), else the repo's own .venv (made by
 * the Python bridge); absent, the benches say so and compare against their
 * bare baselines only.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')
export const SUPERRED_SCRIPTS = join(repo, 'bench', 'superred')

let found: string | null | undefined

/** A python that can import superred, or null. */
export function superredPython(): string | null {
  if (found !== undefined) return found
  const candidates = [process.env.REDSCOPE_PYTHON, join(repo, '.venv', 'bin', 'python')].filter((p): p is string => !!p && existsSync(p))
  found = null
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("superred") else 1)'])
    if (probe.status === 0) {
      found = python
      break
    }
  }
  return found
}

/** Runs a script of bench/superred and parses the JSON line it prints last. */
export function runSuperredScript<T>(script: string, args: readonly string[]): Promise<T> {
  const python = superredPython()
  if (python === null) return Promise.reject(new Error('no python with superred (set REDSCOPE_PYTHON)'))
  return new Promise((resolve, reject) => {
    const child = spawn(python, [join(SUPERRED_SCRIPTS, script), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // litellm would otherwise try to fetch its price list over the network at import.
      env: { ...process.env, LITELLM_LOCAL_MODEL_COST_MAP: 'True' },
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`))
      const last = out.trim().split('\n').at(-1) ?? ''
      try {
        resolve(JSON.parse(last) as T)
      } catch {
        reject(new Error(`${script} printed no JSON: ${last.slice(0, 200)}`))
      }
    })
  })
}
