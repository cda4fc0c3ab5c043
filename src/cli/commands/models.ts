/** `redscope models pull NAME | list | path NAME`: the local model cache (src/adapters/models). */
import {
  defaultModelsDir,
  listCache,
  ModelNotFoundError,
  ModelPullError,
  PINNED_MODELS,
  pinnedModel,
  pullModel,
  resolveModelArg,
  type PinnedModel,
} from '../../adapters/models'
import type { CommandArgs } from '../command'
import type { modelsOptions } from '../definitions/models'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'

const names = () => PINNED_MODELS.map((m) => m.name).join(', ')

function pinnedOrUsage(name: string | undefined, action: string): PinnedModel {
  if (name === undefined) throw new UsageError(`models ${action} needs a model name (${names()})`)
  const model = pinnedModel(name)
  if (!model) throw new UsageError(`no pinned model '${name}' (known: ${names()}); serve-llm --model also takes a GGUF file's path`)
  return model
}

const mb = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 1e6).toFixed(1)} MB`)

export async function modelsCommand(args: CommandArgs<typeof modelsOptions>, io: CliIo): Promise<number> {
  const [action, name] = args.positionals
  const dir = defaultModelsDir()
  if (action === 'list') {
    if (name !== undefined) throw new UsageError(`models list takes no name (got '${name}')`)
    const rows = await listCache(dir)
    io.stdout(`models in ${dir}:\n`)
    for (const r of rows) {
      const label = r.name ?? '(by path)'
      const state =
        r.state === 'pulled'
          ? 'pulled'
          : r.state === 'absent'
            ? `not pulled: redscope models pull ${r.name}`
            : r.state === 'damaged'
              ? `damaged (wrong size): redscope models pull ${r.name}`
              : 'serve-llm --model PATH'
      io.stdout(`  ${label.padEnd(10)} ${r.file.padEnd(36)} ${mb(r.bytes).padStart(9)}  ${state}\n`)
    }
    return EXIT_OK
  }
  if (action === 'path') {
    const model = pinnedOrUsage(name, 'path')
    try {
      io.stdout(`${(await resolveModelArg(model.name, dir)).path}\n`)
      return EXIT_OK
    } catch (e) {
      if (!(e instanceof ModelNotFoundError)) throw e
      io.stderr(`redscope models: ${e.message}\n`)
      return EXIT_FINDINGS
    }
  }
  if (action === 'pull') {
    const model = pinnedOrUsage(name, 'pull')
    if (args.options.python !== undefined && args.options['no-pip']) throw new UsageError('give --python or --no-pip, not both')
    const started = performance.now()
    try {
      const r = await pullModel(model, {
        dir,
        python: args.options['no-pip'] ? null : args.options.python,
        log: (line) => io.stderr(`${line}\n`),
      })
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      io.stdout(
        r.via === 'cache'
          ? `${model.name} is already there: ${r.path} (sha256 checked)\n`
          : `pulled ${model.name} (${model.title}, ${model.license}) in ${seconds} s via ${r.via}: ${r.path}\n`,
      )
      return EXIT_OK
    } catch (e) {
      if (!(e instanceof ModelPullError)) throw e
      io.stderr(`redscope models pull ${model.name}: ${e.message}\n`)
      return EXIT_FINDINGS
    }
  }
  throw new UsageError(`unknown action '${action}' (models pull NAME | list | path NAME)`)
}
