/**
 * The LLM of a served optimizer, as the Controller sees it. The optimizer
 * calls its model on the server (with the server's key); what comes back with
 * every answer is the session's cumulative usage, which this client holds, so
 * the Controller's per-run usage, the cost columns and the budget read true.
 * The cap travels to the server, which enforces it as superred's client does.
 */
import type { Completion, LLMClient, LLMClientFactory } from '../../core/engine'
import type { LLMUsage } from '../../core/engine'

export class ServedLlmClient implements LLMClient {
  readonly costCapUsd: number | null
  readonly model: string
  private current: LLMUsage = { calls: 0, cost: 0 }

  constructor(model: string, costCapUsd: number | null) {
    this.model = model
    this.costCapUsd = costCapUsd
  }

  get usage(): LLMUsage {
    return this.current
  }

  /** The server's cumulative figure, as the latest answer gave it (never lower than before). */
  record(usage: LLMUsage): void {
    if (usage.calls >= this.current.calls && usage.cost >= this.current.cost) this.current = { calls: usage.calls, cost: usage.cost }
  }

  complete(): Promise<Completion> {
    return Promise.reject(new Error(`the served optimizer calls ${this.model} on its own server; nothing calls it from here`))
  }
}

/** The Controller's `llmClientFactory` for a served optimizer: one usage mirror per task, under the task's cap. */
export const servedLlmClientFactory: LLMClientFactory = (config, costCapUsd) => new ServedLlmClient(config.model, costCapUsd)
