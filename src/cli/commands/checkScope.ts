import { hasErrors, validateScope } from '../../core/tags'
import { splitList, type CommandArgs } from '../command'
import type { checkScopeOptions } from '../definitions/checkScope'
import { readForestFile } from '../forestFile'
import { EXIT_FINDINGS, EXIT_OK, type CliIo } from '../io'

/** The scope findings as a JSON array; exit 1 when any is an error. */
export async function checkScopeCommand(args: CommandArgs<typeof checkScopeOptions>, io: CliIo): Promise<number> {
  const { domain } = await readForestFile(args.positionals[0])
  const findings = validateScope(domain, splitList(args.options.scope), splitList(args.options['read-only']))
  io.stdout(`${JSON.stringify(findings, null, 2)}\n`)
  return hasErrors(findings) ? EXIT_FINDINGS : EXIT_OK
}
