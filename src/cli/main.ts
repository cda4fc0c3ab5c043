import { checkScopeCommand, checkScopeHelp } from './commands/checkScope'
import { combinationsCommand, combinationsHelp } from './commands/combinations'
import { resultsCommand, resultsHelp } from './commands/results'
import { runCommand, runHelp } from './commands/run'
import { serveTargetCommand, serveTargetHelp } from './commands/serveTarget'
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io'

type Command = { help: string; run: (argv: readonly string[], io: CliIo) => Promise<number> }

/** The command registry: each command registers its usage line and its runner. */
export const COMMANDS: Record<string, Command> = {
  combinations: { help: combinationsHelp, run: combinationsCommand },
  'check-scope': { help: checkScopeHelp, run: checkScopeCommand },
  run: { help: runHelp, run: runCommand },
  'serve-target': { help: serveTargetHelp, run: serveTargetCommand },
  results: { help: resultsHelp, run: resultsCommand },
}

function usage(): string {
  return `usage:\n${Object.values(COMMANDS).map((c) => `  ${c.help}`).join('\n')}\n`
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ;(name === undefined ? io.stderr : io.stdout)(usage())
    return name === undefined ? EXIT_USAGE : EXIT_OK
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr(`redscope: unknown command '${name}' (try: ${Object.keys(COMMANDS).join(', ')})\n`)
    return EXIT_USAGE
  }
  try {
    return await command.run(rest, io)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`redscope ${name}: ${e.message}\n`)
      return EXIT_USAGE
    }
    throw e
  }
}
