/**
 * `redscope serve-llm`: loads a local GGUF model through node-llama-cpp (an
 * optional dependency, imported only here) and serves it over an
 * OpenAI-compatible API (src/servers/llm) until interrupted. The token (flag
 * or REDSCOPE_LLM_TOKEN) is never printed.
 */
import { defaultModelsDir, ModelNotFoundError, resolveModelArg } from '../../adapters/models'
import { isLoopbackHostname } from '../../servers/http/hostCheck'
import { listenLlmServer } from '../../servers/llm/llmServer'
import { loadLlamaEngine, LlamaRuntimeMissingError } from '../../servers/llm/llamaEngine'
import { splitList, type CommandArgs } from '../command'
import {
  DEFAULT_LLM_CONCURRENCY,
  DEFAULT_LLM_CONTEXT,
  DEFAULT_LLM_MODEL,
  DEFAULT_LLM_PORT,
  DEFAULT_LLM_QUEUE,
  DEFAULT_LLM_THREADS,
  type serveLlmOptions,
} from '../definitions/serveLlm'
import { EXIT_OK, UsageError, type CliIo } from '../io'
import { numberFlag } from '../runSetup'

const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (n: number) =>
    Number.isInteger(n) && n >= min && n <= max

export async function serveLlmCommand(args: CommandArgs<typeof serveLlmOptions>, io: CliIo): Promise<number> {
  const { options } = args
  const port = numberFlag('port', options.port, integer(0, 65535), 'a port number (0 for any free port)') ?? DEFAULT_LLM_PORT
  const threads = numberFlag('threads', options.threads, integer(1, 256), 'an integer of at least 1') ?? DEFAULT_LLM_THREADS
  const contextSize =
    numberFlag('context', options.context, integer(64, 1 << 20), 'a number of tokens of at least 64') ?? DEFAULT_LLM_CONTEXT
  const slots = numberFlag('concurrency', options.concurrency, integer(1, 64), 'an integer from 1 to 64') ?? DEFAULT_LLM_CONCURRENCY
  const maxQueue = numberFlag('queue', options.queue, integer(0, 100_000), 'an integer of at least 0') ?? DEFAULT_LLM_QUEUE
  const maxTokens = numberFlag('max-tokens', options['max-tokens'], integer(1, 1 << 20), 'an integer of at least 1')
  const seed = numberFlag('seed', options.seed, (n) => Number.isSafeInteger(n), 'an integer')
  const token = options.token ?? (process.env.REDSCOPE_LLM_TOKEN || undefined)
  const host = options.host ?? '127.0.0.1'
  // Beyond loopback, anyone who can reach the port could spend this machine's CPU: a token is the price of listening there.
  if (!isLoopbackHostname(host) && host !== '::1' && !token) {
    throw new UsageError(
      `--host ${host} listens beyond this machine: give a token (--token T or $REDSCOPE_LLM_TOKEN), which clients send as their API key`,
    )
  }
  const modelArg = options.model ?? DEFAULT_LLM_MODEL
  let model
  try {
    model = await resolveModelArg(modelArg, defaultModelsDir())
  } catch (e) {
    if (e instanceof ModelNotFoundError) throw new UsageError(e.message)
    throw e
  }
  let engine
  try {
    engine = await loadLlamaEngine({ modelPath: model.path, modelId: model.pinned?.name, threads, contextSize, slots })
  } catch (e) {
    if (e instanceof LlamaRuntimeMissingError) throw new UsageError(e.message)
    throw new UsageError(`cannot load ${model.path}: ${(e as Error).message}`)
  }
  const origins = splitList(options['allow-origin'])
  const hosts = splitList(options['allow-host'])
  let running
  try {
    running = await listenLlmServer(
      {
        engine,
        maxQueue,
        token,
        seed,
        maxTokens,
        ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
        ...(hosts.length > 0 ? { allowedHosts: hosts } : {}),
        ...(options.quiet ? {} : { log: (line: string) => io.stderr(`${line}\n`) }),
      },
      port,
      host,
    )
  } catch (e) {
    await engine.close()
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(
      `cannot listen on ${host}:${port} (${code ?? (e as Error).message})${code === 'EADDRINUSE' ? '; try --port 0' : ''}`,
    )
  }
  io.stdout(
    `serving ${engine.modelId} (${model.path}) at ${running.url}/v1, OpenAI-compatible; ` +
      `${threads} thread${threads === 1 ? '' : 's'}, context ${contextSize}, ${slots} at once, up to ${maxQueue} queued` +
      `${maxTokens === undefined ? '' : `, answers of at most ${maxTokens} tokens`}${seed === undefined ? '' : `, seed ${seed}`}${token ? ', bearer token required' : ''}; Ctrl-C to stop\n`,
  )
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void running
        .close()
        .then(() => engine.close())
        .then(resolve)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return EXIT_OK
}
