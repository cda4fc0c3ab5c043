/**
 * The setup's target as a TargetFactory: a Target-over-HTTP server (a demo
 * target on this origin, or any URL with an optional bearer token), or a
 * browser-side adapter (an OpenAI-compatible chat endpoint, a generic HTTP
 * endpoint). Every network call goes through the explaining fetch, so a
 * refused origin reads as advice.
 */
import { FetchChatBackend } from '../../../adapters/endpoint-targets/chatBackend'
import { genericHttpTargetFactory } from '../../../adapters/endpoint-targets/genericHttpTarget'
import { openAiChatTargetFactory } from '../../../adapters/endpoint-targets/openAiChatTarget'
import type { TargetFactory } from '../../../core/engine'
import type { Forest, SecurityDomain } from '../../../core/tags'
import { connectHttpTarget, HttpTargetFactory, TargetRequestError, type Manifest } from '../../../protocol'
import { checkGeneric } from '../setup/genericDraft'
import { numberOrThrow, RULES, SetupError } from '../setup/numbers'
import type { TargetSetup } from '../setup/setupTypes'
import { pacedFactory } from './livePace'

export interface BuiltTarget {
  readonly factory: TargetFactory
  readonly domain: SecurityDomain
  /** The target segment of the results folder name. */
  readonly label: string
  /** Where it is, for the dashboard (no credentials). */
  readonly where: string
  readonly manifest: Manifest | null
}

export interface TargetSecrets {
  readonly targetToken: string
  readonly openaiKey: string
  readonly genericSecret: string
}

export function demoTargetUrl(name: string, origin: string): string {
  return `${origin}/targets/${name}`
}

export function protocolUrlOf(setup: TargetSetup, origin: string): string | null {
  if (setup.kind === 'demo') return demoTargetUrl(setup.demo, origin)
  if (setup.kind === 'http') return setup.httpUrl.trim().replace(/\/+$/, '')
  return null
}

export interface TargetEnv {
  readonly fetch: typeof fetch
  readonly origin: string
  /** Threat models that will share the target at once (a sweep): they split its session capacity. */
  readonly parallel?: number
  /** A pause before each step of a demo target (livePace.ts): the live view's single run only. */
  readonly paceMs?: number
}

export async function buildTarget(setup: TargetSetup, secrets: TargetSecrets, forest: Forest, env: TargetEnv): Promise<BuiltTarget> {
  const concurrency = numberOrThrow(setup.concurrency, RULES.concurrency)!
  switch (setup.kind) {
    case 'demo':
    case 'http': {
      const url = protocolUrlOf(setup, env.origin)!
      if (url === '') throw new SetupError('Target: type the address of a Target-over-HTTP server')
      try {
        const options = {
          fetch: env.fetch,
          maxConcurrency: concurrency,
          token: setup.kind === 'http' && secrets.targetToken ? secrets.targetToken : undefined,
        }
        let factory = await connectHttpTarget(url, options)
        // Threat models running side by side share the server's sessions: each takes its share, so none waits on 503s.
        const share = Math.max(1, Math.floor(factory.manifest.concurrency / Math.max(1, env.parallel ?? 1)))
        if (share < factory.concurrency)
          factory = new HttpTargetFactory(factory.client, factory.manifest, { ...options, maxConcurrency: share })
        const paced = setup.kind === 'demo' ? pacedFactory(factory, env.paceMs ?? 0) : factory
        return { factory: paced, domain: factory.surfaces.domain, label: factory.manifest.name, where: url, manifest: factory.manifest }
      } catch (e) {
        if (e instanceof TargetRequestError) throw new SetupError(`Target: ${e.message}`)
        throw e
      }
    }
    case 'openai': {
      const o = setup.openai
      if (o.model.trim() === '') throw new SetupError('Target: name the model the chat endpoint serves')
      const backend = new FetchChatBackend({ baseURL: o.baseURL.trim() || null, apiKey: secrets.openaiKey || null, fetch: env.fetch })
      const { factory, domain } = openAiChatTargetFactory(
        backend,
        { model: o.model.trim(), systemPrompt: o.systemPrompt, userMessage: o.userMessage },
        concurrency,
      )
      return { factory, domain, label: `chat-${o.model.trim()}`, where: o.baseURL, manifest: null }
    }
    case 'generic': {
      if (setup.generic === null) throw new SetupError('Target: describe the HTTP endpoint first')
      const check = checkGeneric(setup.generic, forest)
      if (check.spec === null) {
        const [path, message] = [...check.issues][0]
        throw new SetupError(`Target: the HTTP endpoint's ${path || 'setup'}: ${message}`)
      }
      const { factory, domain } = genericHttpTargetFactory(
        check.spec,
        { secret: secrets.genericSecret || null, fetch: env.fetch },
        concurrency,
      )
      return { factory, domain, label: check.spec.name, where: check.spec.url.split('?')[0], manifest: null }
    }
  }
}
