/**
 * What a CLI command is: its name, one-line summary, positional arguments,
 * options, examples and a lazy runner. The registry (registry.ts) lists these
 * definitions only; a command's code is imported when that command runs, so
 * `redscope --help` or `redscope combinations` never load the engine's
 * network code, the openai SDK or the servers.
 */
import type { CliIo } from './io'

export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  /** Repeatable: the values arrive as an array, in order. */
  readonly multiple?: boolean
  readonly short?: string
  /** The value's placeholder in the help (`--port N`). */
  readonly value?: string
  readonly description: string
  /** The heading this option is listed under in the help; 'Options' if none. */
  readonly group?: string
}

export type OptionsSpec = Readonly<Record<string, OptionSpec>>

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean' ? boolean : string

/** Parsed options, typed from the spec: absent options are undefined, repeatable ones arrays. */
export type ParsedOptions<O extends OptionsSpec> = {
  -readonly [K in keyof O]?: O[K]['multiple'] extends true ? ValueOf<O[K]>[] : ValueOf<O[K]>
}

export interface CommandArgs<O extends OptionsSpec> {
  readonly positionals: readonly string[]
  readonly options: ParsedOptions<O>
}

export type CommandRunner<O extends OptionsSpec> = (args: CommandArgs<O>, io: CliIo) => Promise<number>

export interface CommandDefinition<O extends OptionsSpec = OptionsSpec> {
  readonly name: string
  /** One line, shown in `redscope --help`. */
  readonly summary: string
  /** The positional part of the usage line, e.g. `FOREST.json` or `[DIR]`. */
  readonly synopsis: string
  readonly positionals: { readonly min: number; readonly max: number }
  /** Options that must be given, shown in the usage line before `[options]`. */
  readonly required?: ReadonlyArray<keyof O & string>
  readonly options: O
  /** Paragraphs under the usage line: what the command does, what it prints, its exit codes. */
  readonly description?: readonly string[]
  /** Each a comment and a command line. */
  readonly examples: ReadonlyArray<readonly [comment: string, command: string]>
  readonly load: () => Promise<CommandRunner<O>>
}

/** Identity, for inference: the runner's options are typed from the spec. */
export function defineCommand<const O extends OptionsSpec>(definition: CommandDefinition<O>): CommandDefinition<O> {
  return definition
}

/** `a,b` and repeated options both give lists: `--scope a,b --scope c` is [a, b, c]. */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}
