/**
 * `redscope COMMAND ...`: finds the command, parses its options from its
 * definition, answers `--help`, then loads and runs it. Every usage problem is
 * one line on stderr and exit 2.
 */
import { commandHelp, overviewHelp } from './help'
import { maskedIo } from './heldSecrets'
import { EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './io'
import { asksForHelp, parseCommandLine } from './parse'
import { COMMANDS, findCommand } from './registry'

export async function main(argv: readonly string[], out: CliIo): Promise<number> {
  // Whatever a command prints (a task's error, a judge's rationale), the keys this process holds are masked.
  const io = maskedIo(out)
  const [name, ...rest] = argv
  if (name === undefined) {
    io.stderr(overviewHelp(COMMANDS))
    return EXIT_USAGE
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `redscope help run` is `redscope run --help`.
    const about = rest[0] === undefined ? undefined : findCommand(rest[0])
    if (rest[0] !== undefined && about === undefined) return unknownCommand(rest[0], io)
    io.stdout(about ? commandHelp(about) : overviewHelp(COMMANDS))
    return EXIT_OK
  }
  const command = findCommand(name)
  if (command === undefined) return unknownCommand(name, io)
  if (asksForHelp(rest)) {
    io.stdout(commandHelp(command))
    return EXIT_OK
  }
  try {
    const args = parseCommandLine(command, rest)
    const runner = await command.load()
    return await runner(args, io)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`redscope ${name}: ${e.message}\n`)
      return EXIT_USAGE
    }
    throw e
  }
}

function unknownCommand(name: string, io: CliIo): number {
  io.stderr(`redscope: unknown command '${name}' (commands: ${COMMANDS.map((c) => c.name).join(', ')}; see 'redscope --help')\n`)
  return EXIT_USAGE
}
