/**
 * The redscope checkout a command runs from (where dist/ and scripts/ are),
 * found from the running module's own address: the compiled CLI lives in
 * dist-cli/ (its chunks one level deeper), the sources in src/cli/.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export function packageRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from))
  for (;;) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name === 'redscope') return dir
      } catch {
        // Not ours: keep climbing.
      }
    }
    const up = dirname(dir)
    if (up === dir) throw new Error('cannot find the redscope package this command belongs to')
    dir = up
  }
}
