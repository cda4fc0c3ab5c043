import { compareNames, countCombinations, distinctCombinations } from '../../core/tags'
import type { CommandArgs } from '../command'
import type { combinationsOptions } from '../definitions/combinations'
import { readForestFile } from '../forestFile'
import { EXIT_OK, type CliIo } from '../io'

/** Every distinct combination in the reference order (names sorted inside each), or their exact count. */
export async function combinationsCommand(args: CommandArgs<typeof combinationsOptions>, io: CliIo): Promise<number> {
  const { domain } = await readForestFile(args.positionals[0])
  if (args.options.count) {
    io.stdout(`${countCombinations(domain)}\n`)
    return EXIT_OK
  }
  // Written in chunks: the list can run to hundreds of thousands of arrays.
  const combos = distinctCombinations(domain)
  const CHUNK = 4096
  for (let start = 0; start < combos.length; start += CHUNK) {
    const rows = combos.slice(start, start + CHUNK).map((c) => JSON.stringify(c.map((t) => t.name).sort(compareNames)))
    io.stdout(`${start === 0 ? '[' : ','}${rows.join(',')}`)
  }
  io.stdout(']\n')
  return EXIT_OK
}
