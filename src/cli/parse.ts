/**
 * Command-line parsing with node's util.parseArgs, made strict in our own
 * words: every problem is one line naming the option, and a usage error
 * (exit 2). parseArgs runs non-strict with tokens so that the messages are
 * ours, not Node's multi-line ones.
 */
import { parseArgs } from 'node:util'
import type { CommandArgs, CommandDefinition, OptionsSpec, ParsedOptions } from './command'
import { UsageError } from './io'

export const HELP = 'help'

/** `--help` or `-h` anywhere before `--` asks for help, whatever else is on the line. */
export function asksForHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false
    if (arg === '--help' || arg === '-h') return true
  }
  return false
}

const seeHelp = (name: string) => `see 'redscope ${name} --help'`

export function parseCommandLine<O extends OptionsSpec>(command: CommandDefinition<O>, argv: readonly string[]): CommandArgs<O> {
  const spec = command.options
  const nodeOptions = Object.fromEntries(
    Object.entries(spec).map(([name, o]) => [
      name,
      {
        type: o.type,
        multiple: o.multiple ?? false,
        ...(o.short ? { short: o.short } : {}),
      },
    ]),
  )
  const { tokens } = parseArgs({ args: [...argv], options: nodeOptions, strict: false, allowPositionals: true, tokens: true })
  const options: Record<string, unknown> = {}
  const positionals: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value)
      continue
    }
    if (token.kind === 'option-terminator') continue
    const option = Object.hasOwn(spec, token.name) ? spec[token.name] : undefined
    if (option === undefined) throw new UsageError(`unknown option ${token.rawName} (${seeHelp(command.name)})`)
    let value: string | boolean
    if (option.type === 'boolean') {
      if (token.inlineValue) throw new UsageError(`${token.rawName} takes no value`)
      value = true
    } else {
      // `--scope --read-only x` would make "--read-only" the scope: almost always a forgotten value.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
        throw new UsageError(`${token.rawName} needs a value${option.value ? ` (${option.value})` : ''}`)
      }
      value = token.value
    }
    options[token.name] = option.multiple ? [...((options[token.name] as unknown[] | undefined) ?? []), value] : value
  }
  const { min, max } = command.positionals
  if (positionals.length > max) {
    throw new UsageError(`unexpected argument '${positionals[max]}' (usage: ${usageLine(command)}; ${seeHelp(command.name)})`)
  }
  if (positionals.length < min) throw new UsageError(`missing ${command.synopsis} (usage: ${usageLine(command)}; ${seeHelp(command.name)})`)
  for (const name of command.required ?? []) {
    const given = options[name]
    if (given === undefined || (typeof given === 'string' && given.trim() === '')) {
      throw new UsageError(`--${name} is required (usage: ${usageLine(command)}; ${seeHelp(command.name)})`)
    }
  }
  return { positionals, options: options as ParsedOptions<O> }
}

export function usageLine<O extends OptionsSpec>(command: CommandDefinition<O>): string {
  const required = (command.required ?? []).map((name) => `--${name} ${command.options[name]?.value ?? 'VALUE'}`)
  return ['redscope', command.name, command.synopsis, ...required, Object.keys(command.options).length > 0 ? '[options]' : '']
    .filter((s) => s !== '')
    .join(' ')
}
