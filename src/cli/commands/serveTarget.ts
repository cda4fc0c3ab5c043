/**
 * `redscope serve-target assistant|chatbot|stochastic`: serves a reference target over
 * the protocol (on 127.0.0.1 unless --host says otherwise) until interrupted. The token (flag or
 * REDSCOPE_TARGET_TOKEN) is never printed.
 */
import { createTargetServer, isLoopbackHostname } from '../../servers/target'
import { isDefence } from '../../reference-targets/assistant/defences'
import {
  DEFAULT_STOCHASTIC_SEED,
  DEFENCES,
  type Defence,
  isReferenceTargetName,
  parseThinkMs,
  REFERENCE_TARGET_NAMES,
  referenceTargetOptions,
  servedModel,
  thinkMsFromEnv,
  withPolicyModel,
  type PolicyModel,
} from '../../reference-targets'
import { splitList, type CommandArgs } from '../command'
import { DEFAULT_TARGET_PORT, type serveTargetOptions } from '../definitions/serveTarget'
import { EXIT_OK, UsageError, type CliIo } from '../io'
import { numberFlag } from '../runSetup'

function thinkTime(flag: string | undefined): number {
  try {
    return flag === undefined ? thinkMsFromEnv() : parseThinkMs(flag, '--think-ms')
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

/** --llm URL [--llm-model M]: the model every session starts on, checked by asking the server which it serves. */
async function policyModel(url: string | undefined, model: string | undefined): Promise<PolicyModel | null> {
  if (url === undefined) {
    if (model !== undefined) throw new UsageError('--llm-model needs --llm URL (the model server to ask)')
    return null
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`--llm: ${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:8808/v1)`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--llm: ${url} is not an http(s) URL`)
  if (parsed.username || parsed.password)
    throw new UsageError('--llm: the URL must not carry credentials (the key comes from $OPENAI_API_KEY)')
  const baseUrl = url.replace(/\/+$/, '')
  try {
    return { baseUrl, model: model ?? (await servedModel(baseUrl)) }
  } catch (e) {
    throw new UsageError(`--llm: ${(e as Error).message}`)
  }
}

export async function serveTargetCommand(args: CommandArgs<typeof serveTargetOptions>, io: CliIo): Promise<number> {
  const name = args.positionals[0]
  if (!isReferenceTargetName(name)) throw new UsageError(`no reference target '${name}' (known: ${REFERENCE_TARGET_NAMES.join(', ')})`)
  const { options } = args
  const port = numberFlag('port', options.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port number (0 for any free port)')
  const idle = numberFlag('idle-timeout', options['idle-timeout'], (n) => n > 0, 'a positive number of seconds')
  const token = options.token ?? (process.env.REDSCOPE_TARGET_TOKEN || undefined)
  const concurrency = numberFlag('concurrency', options.concurrency, (n) => Number.isInteger(n) && n >= 1, 'an integer of at least 1')
  const host = options.host ?? '127.0.0.1'
  const thinkMs = thinkTime(options['think-ms'])
  const seed = numberFlag('seed', options.seed, (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff, 'an integer from 0 to 4294967295')
  if (seed !== undefined && name !== 'stochastic')
    throw new UsageError(`--seed: only the stochastic target draws at random (${name} is deterministic)`)
  // Beyond loopback, anyone who can reach the port could drive the target: a token is the price of listening there.
  if (!isLoopbackHostname(host) && host !== '::1' && !token) {
    throw new UsageError(
      `--host ${host} listens beyond this machine: give a token (--token T or $REDSCOPE_TARGET_TOKEN), which clients send as a bearer token`,
    )
  }
  if (options.llm !== undefined && name === 'stochastic')
    throw new UsageError('--llm: the stochastic target has no replies to write (its odds are its policy)')
  const weaken = options['weaken-defence']
  if (weaken !== undefined && name !== 'assistant')
    throw new UsageError(`--weaken-defence: only the assistant has these defences (${name} does not)`)
  if (weaken !== undefined && (!isDefence(weaken) || weaken === 'none')) {
    throw new UsageError(`--weaken-defence ${weaken}: expected one of ${DEFENCES.slice(1).join(', ')}`)
  }
  const policy = await policyModel(options.llm, options['llm-model'])
  const origins = splitList(options['allow-origin'])
  const hosts = splitList(options['allow-host'])
  const served = referenceTargetOptions(
    name,
    {
      token,
      idleTimeoutMs: idle === undefined ? undefined : idle * 1000,
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(hosts.length > 0 ? { allowedHosts: hosts } : {}),
      // Loopback origins by default; --allow-origin replaces them with exactly the ones given.
      ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
    },
    thinkMs,
    seed,
    weaken as Defence | undefined,
  )
  const server = createTargetServer(policy === null ? served : withPolicyModel(served, policy))
  let running
  try {
    running = await server.listen(port ?? DEFAULT_TARGET_PORT, host)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(
      `cannot listen on ${host}:${port ?? DEFAULT_TARGET_PORT} (${code ?? (e as Error).message})${code === 'EADDRINUSE' ? '; try --port 0' : ''}`,
    )
  }
  io.stdout(
    `serving ${name} at ${running.url} (manifest: ${running.url}/manifest)${token ? ', bearer token required' : ''}${thinkMs > 0 ? `, ${thinkMs} ms think time per step` : ''}` +
      `${name === 'stochastic' ? `, seed ${seed ?? DEFAULT_STOCHASTIC_SEED}` : ''}` +
      `${weaken === undefined ? '' : `, defence ${weaken} weakened to the one below`}` +
      `${name === 'stochastic' ? '' : policy === null ? ', deterministic policy' : `, replies by the model ${policy.model} at ${policy.baseUrl}`}; Ctrl-C to stop\n`,
  )
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void running.close().then(resolve)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return EXIT_OK
}
