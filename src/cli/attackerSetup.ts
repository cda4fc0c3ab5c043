/**
 * The attacker, its LLM, the judge and the budget from the flags every
 * attacking command shares (definitions/attackOptions.ts), so that `run` and
 * `sweep` read them the same way. Keys come from OPENAI_API_KEY only.
 */
import {
  DEFAULT_MAX_TURNS,
  humanAttackerConfig,
  humanOptimizerFactory,
  isInjectOn,
  llmAttackerConfig,
  llmOptimizerFactory,
  replayAttackerConfig,
  servedAttackerConfig,
  templateAttackerConfig,
  templateOptimizerFactory,
  type InjectOn,
} from '../attackers'
import { readFile } from 'node:fs/promises'
import { configPrice, openAiClientFactory } from '../adapters/llm/openaiClient'
import {
  unpricedCapMessage,
  type EngineSemantics,
  type LLMClient,
  type LLMClientFactory,
  type LLMConfig,
  type OptimizerFactory,
  type PriceTable,
} from '../core/engine'
import { TargetRequestError } from '../protocol'
import { connectServedOptimizer, ServedOptimizerError, servedLlmClientFactory } from '../protocol/optimizer'
import type { AttackerConfig } from '../core/results'
import type { ParsedOptions } from './command'
import type { ATTACKER_OPTIONS, BUDGET_OPTIONS, TARGET_OPTIONS } from './definitions/attackOptions'
import { UsageError } from './io'
import { numberFlag, readReplay, replayFactory } from './runSetup'
import { resolveTemplates } from './templates'
import { ttyPrompter } from './ttyPrompter'

export type AttackFlags = ParsedOptions<
  typeof ATTACKER_OPTIONS & typeof BUDGET_OPTIONS & Pick<typeof TARGET_OPTIONS, 'request-timeout' | 'capacity-wait'>
>

export const OPTIMIZERS = ['template', 'llm', 'replay', 'human', 'served'] as const
export type OptimizerKind = (typeof OPTIMIZERS)[number]

export interface Budget {
  readonly maxRuns?: number
  readonly concurrency?: number
  readonly costCap?: number
  readonly timeCap?: number
  readonly requestTimeout?: number
  readonly llmTimeout?: number
  readonly capacityWait?: number
  readonly maxTurns?: number
  readonly priceIn?: number
  readonly priceOut?: number
}

export function readBudget(options: AttackFlags): Budget {
  const int = (n: number) => Number.isInteger(n)
  return {
    maxRuns: numberFlag('max-runs', options['max-runs'], (n) => int(n) && n >= 1, 'an integer of at least 1'),
    concurrency: numberFlag('concurrency', options.concurrency, (n) => int(n) && n >= 1, 'an integer of at least 1'),
    costCap: numberFlag('cost-cap', options['cost-cap'], (n) => n >= 0, 'a non-negative amount of USD'),
    timeCap: numberFlag('time-cap', options['time-cap'], (n) => n > 0, 'a positive number of seconds'),
    requestTimeout: numberFlag('request-timeout', options['request-timeout'], (n) => n > 0, 'a positive number of seconds'),
    llmTimeout: numberFlag('llm-timeout', options['llm-timeout'], (n) => n > 0, 'a positive number of seconds'),
    capacityWait: numberFlag('capacity-wait', options['capacity-wait'], (n) => n >= 0, 'a non-negative number of seconds'),
    maxTurns: numberFlag('max-turns', options['max-turns'], (n) => int(n) && n >= 1, 'an integer of at least 1'),
    priceIn: numberFlag('price-in', options['price-in'], (n) => n >= 0, 'a non-negative amount of USD per 1M tokens'),
    priceOut: numberFlag('price-out', options['price-out'], (n) => n >= 0, 'a non-negative amount of USD per 1M tokens'),
  }
}

export interface AttackerChoice {
  readonly kind: OptimizerKind
  readonly injectOn: InjectOn | undefined
  /** The llm attacker's turn limit per run (undefined: its default). */
  readonly maxTurns: number | undefined
  readonly model: string | undefined
  readonly llmConfig: LLMConfig | null
  /** Builds each task's LLM client (for the attacker and the judge). */
  readonly clients: LLMClientFactory
  /** The llm_judge evaluator's client, when a judge model is known. */
  readonly judge: (() => LLMClient) | undefined
  /** Seconds per request to a served optimizer (--request-timeout), when given. */
  readonly requestTimeoutS: number | undefined
  /** The attacker's model when it has no price (its cost is then "unpriced", not $0). */
  readonly unpricedModel: string | null
}

/** Checks the attacker flags against each other before anything is read or connected. */
export function chooseAttacker(options: AttackFlags, budget: Budget, allowed: readonly OptimizerKind[] = OPTIMIZERS): AttackerChoice {
  const served = options['optimizer-url'] !== undefined
  const kind = (options.optimizer ?? (served ? 'served' : 'template')) as OptimizerKind
  if (served && kind !== 'served')
    throw new UsageError(`--optimizer-url: the attacker is then the served optimizer (leave out --optimizer ${kind})`)
  if (kind === 'served' && !served) throw new UsageError('--optimizer served needs --optimizer-url URL and --optimizer-name NAME')
  if (served && !options['optimizer-name'])
    throw new UsageError('--optimizer-url needs --optimizer-name NAME (the server lists its optimizers at URL/optimizers)')
  for (const flag of ['optimizer-name', 'optimizer-kwargs'] as const) {
    if (!served && options[flag] !== undefined) throw new UsageError(`--${flag} only applies with --optimizer-url`)
  }
  if (served && options.model !== undefined) {
    throw new UsageError(
      "--model: a served optimizer calls the server's own model (redscope-bridge serve --llm-model); use --judge-model for the judge",
    )
  }
  if (!allowed.includes(kind)) {
    const why = kind === 'human' ? ': a sweep runs unattended (use redscope run to be the attacker yourself)' : ''
    throw new UsageError(`--optimizer ${kind}: must be one of ${allowed.join(', ')}${why}`)
  }
  const injectOn = options['inject-on']
  if (injectOn !== undefined && !isInjectOn(injectOn)) throw new UsageError(`--inject-on ${injectOn}: must be pre, post or both`)
  const model = options.model
  const apiKey = process.env.OPENAI_API_KEY || null
  if (kind === 'llm' && !model) throw new UsageError('--optimizer llm needs --model M (and --base-url U for a server other than OpenAI)')
  if (kind === 'replay' && !options.replay) throw new UsageError('--optimizer replay needs --replay RUN.json or a task folder')
  if (options.template !== undefined && kind !== 'template') throw new UsageError('--template only applies to --optimizer template')
  if (options['max-turns'] !== undefined && kind !== 'llm') throw new UsageError('--max-turns only applies to --optimizer llm')
  if ((budget.priceIn !== undefined || budget.priceOut !== undefined) && !model)
    throw new UsageError('--price-in and --price-out price --model M: name it')
  const configured: PriceTable =
    model && (budget.priceIn !== undefined || budget.priceOut !== undefined)
      ? { [model]: { inputPerMillion: budget.priceIn ?? 0, outputPerMillion: budget.priceOut ?? 0 } }
      : {}
  const clients = openAiClientFactory({ configured, ...(budget.llmTimeout === undefined ? {} : { timeoutMs: budget.llmTimeout * 1000 }) })
  // The judge: its own model if given, else the attacker's.
  const judgeModel = options['judge-model'] ?? model
  const judgeConfig: LLMConfig | null = judgeModel
    ? { model: judgeModel, apiBase: options['judge-base-url'] ?? options['base-url'] ?? null, apiKey }
    : null
  const judge =
    judgeConfig === null ? undefined : (): LLMClient => clients(judgeConfig, budget.costCap ?? null, new AbortController().signal)
  const llmConfig: LLMConfig | null = kind === 'llm' ? { model: model!, apiBase: options['base-url'] ?? null, apiKey } : null
  // A cap on a model without a price could not be enforced: refused here, before anything runs.
  for (const [flag, config] of [
    ['--model', llmConfig],
    ['--judge-model', judgeConfig],
  ] as const) {
    if (config === null || budget.costCap === undefined || configPrice(config, { configured }) !== null) continue
    throw new UsageError(
      `--cost-cap ${budget.costCap}: ${flag} ${unpricedCapMessage(config.model, config.apiBase)} ` +
        `(--price-in and --price-out, USD per 1M tokens${flag === '--judge-model' && judgeConfig?.model !== model ? ', price --model only' : ''})`,
    )
  }
  const unpricedModel = llmConfig !== null && configPrice(llmConfig, { configured }) === null ? llmConfig.model : null
  return {
    kind,
    injectOn: injectOn as InjectOn | undefined,
    maxTurns: budget.maxTurns,
    model,
    llmConfig,
    clients,
    judge,
    unpricedModel,
    requestTimeoutS: budget.requestTimeout,
  }
}

export interface Attacker {
  readonly optimizerFactory: OptimizerFactory
  /** What tells this attacker from another of its kind (payloads, inject-on, model, the replayed run, a served optimizer's kwargs), never a key. */
  readonly config: AttackerConfig
  /** A served optimizer's LLM: the server's model, whose usage comes back with its answers (else the choice's). */
  readonly llm?: { readonly config: LLMConfig | null; readonly clients: LLMClientFactory }
  close(): void
}

/** The Controller's llmConfig and llmClientFactory for this attacker. */
export function attackerLlm(
  choice: AttackerChoice,
  attacker: Attacker,
): { llmConfig: LLMConfig | null; llmClientFactory: LLMClientFactory | null } {
  const config = attacker.llm ? attacker.llm.config : choice.llmConfig
  const clients = attacker.llm ? attacker.llm.clients : choice.clients
  return { llmConfig: config, llmClientFactory: config ? clients : null }
}

/**
 * Reads what the attacker needs (payload files, a recorded run) and builds its factory. Under superred 0.3.0's
 * semantics the template attacker is done after its last payload, as superred's prompt-list optimizer is; under
 * redscope's it cycles through them until a success or --max-runs.
 */
export async function buildAttacker(
  choice: AttackerChoice,
  options: AttackFlags,
  semantics: EngineSemantics = 'redscope',
): Promise<Attacker> {
  switch (choice.kind) {
    case 'template': {
      const template = { templates: await resolveTemplates(options.template ?? []), injectOn: choice.injectOn }
      // Whether it cycles follows from the semantics, not from the attacker's configuration (its label stays one).
      const cycle = semantics === 'redscope'
      return {
        optimizerFactory: templateOptimizerFactory({ ...template, cycle }),
        config: templateAttackerConfig(template),
        close: () => {},
      }
    }
    case 'llm': {
      const llm = { injectOn: choice.injectOn, maxTurns: choice.maxTurns ?? DEFAULT_MAX_TURNS }
      const config = llmAttackerConfig({ ...llm, model: choice.model!, apiBase: choice.llmConfig?.apiBase ?? null })
      return { optimizerFactory: llmOptimizerFactory(llm), config, close: () => {} }
    }
    case 'replay': {
      const run = await readReplay(options.replay!)
      return { optimizerFactory: replayFactory(run), config: replayAttackerConfig(run, options.replay!), close: () => {} }
    }
    case 'served': {
      const source = await connectServed(
        options['optimizer-url']!,
        options['optimizer-name']!,
        await readKwargs(options['optimizer-kwargs']),
        choice.requestTimeoutS,
      )
      return {
        optimizerFactory: source.optimizerFactory,
        config: servedAttackerConfig(source.config),
        llm: { config: source.llmConfig, clients: servedLlmClientFactory },
        close: () => {},
      }
    }
    case 'human': {
      if (!process.stdin.isTTY) throw new UsageError('--optimizer human needs a terminal to ask you at each pause')
      const prompter = ttyPrompter(process.stdin, process.stderr)
      return { optimizerFactory: humanOptimizerFactory(prompter), config: humanAttackerConfig(), close: () => prompter.close() }
    }
  }
}

/** `--optimizer-kwargs`: a JSON object, inline or `@FILE`. */
async function readKwargs(text: string | undefined): Promise<Record<string, unknown>> {
  if (text === undefined) return {}
  let source = text
  let where = '--optimizer-kwargs'
  if (text.startsWith('@')) {
    where = `--optimizer-kwargs ${text}`
    try {
      source = await readFile(text.slice(1), 'utf8')
    } catch (e) {
      throw new UsageError(`${where}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`)
    }
  }
  let value: unknown
  try {
    value = JSON.parse(source)
  } catch (e) {
    throw new UsageError(`${where}: not JSON (${(e as Error).message})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${where}: must be a JSON object of keyword arguments`)
  return value as Record<string, unknown>
}

/** Reads the server's list and has it check the kwargs; an unreachable server or a bad name is a usage error. */
async function connectServed(url: string, name: string, kwargs: Record<string, unknown>, requestTimeoutS: number | undefined) {
  try {
    return await connectServedOptimizer(url, name, kwargs, {
      token: process.env.REDSCOPE_OPTIMIZER_TOKEN || undefined,
      ...(requestTimeoutS === undefined ? {} : { requestTimeoutMs: requestTimeoutS * 1000 }),
    })
  } catch (e) {
    if (e instanceof ServedOptimizerError) throw new UsageError(`--optimizer-url: ${e.message}`)
    if (e instanceof TargetRequestError)
      throw new UsageError(`--optimizer-url: unreachable or not a superred-optimizer-http/1 server: ${e.message}`)
    throw e
  }
}
