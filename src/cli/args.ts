import { UsageError } from './io'

export interface ParsedArgs {
  positionals: string[]
  /** Flag values in order of appearance; a boolean flag maps to [true]. */
  flags: Map<string, Array<string | true>>
}

/**
 * A small, strict flag parser: every flag must be declared, and a value flag
 * must have a value. Unknown flags are usage errors, not silently ignored.
 */
export function parseArgs(argv: readonly string[], spec: { values?: string[]; booleans?: string[] }): ParsedArgs {
  const values = new Set(spec.values ?? [])
  const booleans = new Set(spec.booleans ?? [])
  const positionals: string[] = []
  const flags = new Map<string, Array<string | true>>()
  const push = (name: string, v: string | true) => flags.set(name, [...(flags.get(name) ?? []), v])
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    if (booleans.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`)
      push(name, true)
    } else if (values.has(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined) throw new UsageError(`--${name} needs a value`)
      push(name, value)
    } else {
      throw new UsageError(`unknown option --${name}`)
    }
  }
  return { positionals, flags }
}

export function lastValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name)?.at(-1)
  return typeof v === 'string' ? v : undefined
}

export function hasFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name)
}

/** `a,b` and repeated flags both give lists: `--scope a,b --scope c` is [a, b, c]. */
export function listValue(args: ParsedArgs, name: string): string[] {
  return (args.flags.get(name) ?? [])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}
