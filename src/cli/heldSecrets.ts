/**
 * The secrets a CLI process holds, all from its environment (a flag would show in `ps`): the model key and
 * the target's token. They are masked out of everything the process writes (core/redaction/secretMask.ts):
 * its results trees, through `resultsStorage` (resultsStorage.ts), and its stdout and stderr, through `maskedIo`.
 * The entry loads this file for every command, `--help` included: it imports the mask alone, no storage and no rules.
 */
import { secretMask, type SecretMask } from '../core/redaction/secretMask'
import type { CliIo } from './io'

export const SECRET_ENV = ['OPENAI_API_KEY', 'REDSCOPE_TARGET_TOKEN'] as const

export function heldSecretsMask(env: NodeJS.ProcessEnv = process.env): SecretMask {
  return secretMask(SECRET_ENV.map((name) => env[name]))
}

/** `io` with the held secrets masked out of every line. */
export function maskedIo(io: CliIo, mask: SecretMask = heldSecretsMask()): CliIo {
  if (!mask.active) return io
  return { stdout: (text) => io.stdout(mask.mask(text)), stderr: (text) => io.stderr(mask.mask(text)) }
}
