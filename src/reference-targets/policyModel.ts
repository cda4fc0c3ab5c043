/**
 * A reference target on a model instead of its deterministic policy, set by
 * whoever serves it (`redscope serve-target chatbot --llm URL`): every new
 * session starts with `policy_model` and `policy_base_url` set, as if its
 * claim had set them; a task's own config still wins (`policy_model=` empty
 * goes back to the deterministic policy).
 */
import { z } from 'zod'
import type { Target } from '../core/engine'
import type { TargetServerOptions } from '../servers/target'

export interface PolicyModel {
  /** An OpenAI-compatible base URL, …/v1. */
  readonly baseUrl: string
  readonly model: string
}

export function withPolicyModel(options: TargetServerOptions, policy: PolicyModel): TargetServerOptions {
  const create = options.create
  return {
    ...options,
    create: async (): Promise<Target> => {
      const target = await create()
      await target.setConfig('policy_model', policy.model)
      await target.setConfig('policy_base_url', policy.baseUrl)
      return target
    },
  }
}

const ModelList = z.object({ data: z.array(z.object({ id: z.string().min(1) })) })

/**
 * The model a server at `baseUrl` serves (its first `GET /models` entry): asked once when a target is served, so
 * that a wrong address is said at start, not at the first run.
 */
export async function servedModel(baseUrl: string, fetchFn: typeof fetch = fetch): Promise<string> {
  let res: Response
  try {
    res = await fetchFn(`${baseUrl.replace(/\/+$/, '')}/models`, { signal: AbortSignal.timeout(10_000) })
  } catch (e) {
    throw new Error(`cannot reach the model server at ${baseUrl} (${(e as Error).message}): start one with \`redscope serve-llm\``)
  }
  if (!res.ok)
    throw new Error(`the model server at ${baseUrl} answered GET /models with ${res.status}: is it an OpenAI-compatible base URL (…/v1)?`)
  const body = ModelList.safeParse(await res.json().catch(() => null))
  const id = body.success ? body.data.data[0]?.id : undefined
  if (id === undefined) throw new Error(`the model server at ${baseUrl} lists no model at GET /models: give one with --llm-model`)
  return id
}
