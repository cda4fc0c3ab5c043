/**
 * Every command, in the order `redscope --help` lists them. Only definitions
 * are imported here (names, options, examples); each command's code loads
 * when it runs. To add a command, see src/cli/README.md.
 */
import type { CommandDefinition, OptionsSpec } from './command'
import { bundle } from './definitions/bundle'
import { checkScope } from './definitions/checkScope'
import { combinations } from './definitions/combinations'
import { compare } from './definitions/compare'
import { frontier } from './definitions/frontier'
import { results } from './definitions/results'
import { merge } from './definitions/merge'
import { models } from './definitions/models'
import { run } from './definitions/run'
import { serveLlm } from './definitions/serveLlm'
import { serveTarget } from './definitions/serveTarget'
import { sweep } from './definitions/sweep'
import { view } from './definitions/view'

// Each definition is typed by its own options; the registry only needs what they share.
const erase = <O extends OptionsSpec>(c: CommandDefinition<O>) => c as unknown as CommandDefinition

export const COMMANDS: readonly CommandDefinition[] = [
  erase(combinations),
  erase(checkScope),
  erase(run),
  erase(sweep),
  erase(frontier),
  erase(merge),
  erase(serveTarget),
  erase(serveLlm),
  erase(models),
  erase(results),
  erase(compare),
  erase(view),
  erase(bundle),
]

export function findCommand(name: string): CommandDefinition | undefined {
  return COMMANDS.find((c) => c.name === name)
}
