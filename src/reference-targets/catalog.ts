/**
 * The reference targets, ready to serve: `redscope serve-target NAME`, the
 * Vite plugin that mounts them beside the app, tests and the benchmark all
 * build them from here.
 */
import type { Target } from '../core/engine'
import type { Forest } from '../core/tags'
import { CHATBOT_FOREST } from '../core/tags'
import type { TargetServerOptions } from '../servers/target'
import { AssistantTarget } from './assistant/assistantTarget'
import type { Defence } from './assistant/defences'
import { ASSISTANT_FOREST } from './assistant/forest'
import { assistantSurfaces } from './assistant/surfaces'
import { ChatbotTarget, chatbotSurfaces } from './chatbot/chatbotTarget'
import { STOCHASTIC_FOREST } from './stochastic/forest'
import { seededDraws } from './stochastic/odds'
import { DEFAULT_STOCHASTIC_SEED, StochasticTarget, stochasticSurfaces } from './stochastic/stochasticTarget'
import type { ReferenceTargetName } from './names'
import { withThinkTime } from './thinkTime'

export { REFERENCE_TARGET_NAMES, isReferenceTargetName, type ReferenceTargetName } from './names'

export interface FactoryOptions {
  /** A random target's seed (the stochastic one); the others ignore it. */
  readonly seed?: number
  /** The assistant as a regressed build: sessions set to this defence run the one weaker (AssistantOptions). */
  readonly weakenDefence?: Defence
}

interface ReferenceTarget {
  readonly name: string
  readonly description: string
  readonly forest: Forest
  /** A factory whose instances share one SecurityDomain (tags compare by identity); `seed` drives a random target's stream. */
  readonly factory: (options?: FactoryOptions) => () => Target
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')

/**
 * The server's OPENAI_API_KEY goes only to the endpoint the server itself
 * names (OPENAI_BASE_URL, else the SDK's default): `policy_base_url` is set by
 * whoever opens a session, who must not be able to send the key elsewhere.
 */
function serverKeyFor(baseUrl: string | undefined): string | undefined {
  const env = globalThis.process?.env ?? {}
  const own = env.OPENAI_BASE_URL
  const same = baseUrl === undefined || (own !== undefined && trimSlash(own) === trimSlash(baseUrl))
  return same ? env.OPENAI_API_KEY : undefined
}

export const REFERENCE_TARGETS: Readonly<Record<ReferenceTargetName, ReferenceTarget>> = {
  assistant: {
    name: 'redscope-assistant',
    description:
      "A tool-using assistant over Jordan's inbox, calendar, cloud drive and bank account; it follows instructions it reads in tool data, within the limits of its `defence`",
    forest: ASSISTANT_FOREST,
    factory: ({ weakenDefence } = {}) => {
      const surfaces = assistantSurfaces()
      return () => new AssistantTarget(surfaces, { apiKey: serverKeyFor, weakenDefence })
    },
  },
  chatbot: {
    name: 'redscope-chatbot',
    description: "Acme Bank's help bot; its system prompt guards a vault passphrase within the limits of its `defence`",
    forest: CHATBOT_FOREST,
    factory: () => {
      const surfaces = chatbotSurfaces()
      return () => new ChatbotTarget(surfaces, { apiKey: serverKeyFor })
    },
  },
  stochastic: {
    name: 'redscope-stochastic',
    description:
      'A refund agent that obeys an injected instruction by chance, with known odds per surface written (seeded): ' +
      'the reference for searching a noisy target with `redscope frontier --confidence`',
    forest: STOCHASTIC_FOREST,
    factory: ({ seed } = {}) => {
      const surfaces = stochasticSurfaces()
      // One per server: the k-th run at a set of surfaces draws the same number in whatever session it runs.
      const draw = seededDraws(seed ?? DEFAULT_STOCHASTIC_SEED)
      return () => new StochasticTarget(surfaces, draw)
    },
  },
}

/**
 * Server options for a reference target; `extra` adds a token, origins, timeouts...
 * `thinkMs` is the pause before each step (thinkTime.ts): zero unless the caller serves people.
 * `seed` seeds a random target's stream (the stochastic one); the others ignore it.
 */
export function referenceTargetOptions(
  name: ReferenceTargetName,
  extra: Partial<TargetServerOptions> = {},
  thinkMs = 0,
  seed?: number,
  weakenDefence?: Defence,
): TargetServerOptions {
  const t = REFERENCE_TARGETS[name]
  const make = t.factory({ seed, weakenDefence })
  return {
    create: thinkMs > 0 ? () => withThinkTime(make(), thinkMs) : make,
    name: t.name,
    description: t.description,
    tagDescriptions: Object.fromEntries(t.forest.tags.map((tag) => [tag.name, tag.description])),
    tagReferences: Object.fromEntries(t.forest.tags.flatMap((tag) => (tag.references?.length ? [[tag.name, tag.references]] : []))),
    concurrency: 8,
    ...extra,
  }
}
