/** The help texts: `redscope --help` (every command in a line) and `redscope NAME --help`. */
import type { CommandDefinition } from './command'
import { usageLine } from './parse'

const HELP_OPTION = { type: 'boolean', short: 'h', description: 'show this help' } as const

const WIDTH = 100

/** Words wrapped at WIDTH columns, each line indented. */
function wrap(text: string, indent = ''): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(indent + line)
  return lines
}

function table(rows: ReadonlyArray<readonly [string, string]>, width = leftWidth(rows)): string[] {
  return rows.map(([left, right]) =>
    left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`,
  )
}

function leftWidth(rows: ReadonlyArray<readonly [string, string]>): number {
  return Math.min(Math.max(...rows.map(([left]) => left.length)), 34)
}

export function commandHelp(command: CommandDefinition): string {
  const groups = new Map<string, Array<[string, string]>>()
  for (const [name, o] of [...Object.entries(command.options), ['help', HELP_OPTION] as const]) {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`
    const group = ('group' in o && o.group) || 'Options'
    groups.set(group, [...(groups.get(group) ?? []), [flag, `${o.description}${'multiple' in o && o.multiple ? ' (repeatable)' : ''}`]])
  }
  const lines = [`redscope ${command.name}: ${command.summary}`, '', `Usage: ${usageLine(command)}`]
  for (const paragraph of command.description ?? []) lines.push('', ...wrap(paragraph))
  // 'Options' (the general ones, --help among them) comes last.
  const ordered = [...groups].sort(([a], [b]) => Number(a === 'Options') - Number(b === 'Options'))
  const width = leftWidth(ordered.flatMap(([, rows]) => rows))
  for (const [group, rows] of ordered) lines.push('', `${group}:`, ...table(rows, width))
  if (command.examples.length > 0) {
    lines.push('', 'Examples:')
    for (const [comment, line] of command.examples) lines.push(`  # ${comment}`, `  ${line}`)
  }
  return `${lines.join('\n')}\n`
}

export function overviewHelp(commands: readonly CommandDefinition[]): string {
  return [
    'redscope: threat models of AI systems, in the style of superred',
    '',
    'Usage: redscope COMMAND [arguments] [options]',
    '',
    'Commands:',
    ...table(commands.map((c) => [c.name, c.summary])),
    '',
    "Run 'redscope COMMAND --help' for a command's options and examples.",
    '',
  ].join('\n')
}
