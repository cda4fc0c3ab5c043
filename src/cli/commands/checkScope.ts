import { hasErrors, validateScope } from '../../core/tags'
import { listValue, parseArgs } from '../args'
import { readForestFile } from '../forestFile'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'

export const checkScopeHelp = 'redscope check-scope FOREST.json --scope a,b [--read-only c]'

/** The scope findings as a JSON array; exit 1 when any is an error. */
export async function checkScopeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { values: ['scope', 'read-only'] })
  if (args.positionals.length !== 1) throw new UsageError(`usage: ${checkScopeHelp}`)
  const { domain } = await readForestFile(args.positionals[0])
  const findings = validateScope(domain, listValue(args, 'scope'), listValue(args, 'read-only'))
  io.stdout(`${JSON.stringify(findings, null, 2)}\n`)
  return hasErrors(findings) ? EXIT_FINDINGS : EXIT_OK
}
