import { combinationsJsonChunks, countCombinations } from '../../core/tags'
import type { CommandArgs } from '../command'
import type { combinationsOptions } from '../definitions/combinations'
import { readForestFile } from '../forestFile'
import { EXIT_OK, type CliIo } from '../io'

/**
 * Every distinct combination in the reference order (names sorted inside each), or their exact count.
 * Streamed from the cursor: no list of combinations and no per-combination arrays are built
 * (the AgentDojo forest prints 351,974 lists; building them first was most of the command's time).
 */
export async function combinationsCommand(args: CommandArgs<typeof combinationsOptions>, io: CliIo): Promise<number> {
  const { domain } = await readForestFile(args.positionals[0])
  if (args.options.count) {
    io.stdout(`${countCombinations(domain)}\n`)
    return EXIT_OK
  }
  // About 1 MB a write: few system calls, and memory bounded whatever the forest.
  for (const chunk of combinationsJsonChunks(domain, 1 << 20)) io.stdout(chunk)
  return EXIT_OK
}
