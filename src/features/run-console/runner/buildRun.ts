/**
 * A run as the CLI's `redscope run` wires one, from the console's setup:
 * target, claim (with a judge when it needs one), attacker, LLM settings,
 * one Controller per threat model, results into IndexedDB. Every problem is
 * a SetupError with a sentence saying what to fix, raised before anything
 * runs. Keys go to the adapters only: LLMConfig is the one place they live,
 * and the engine persists `{model}` of it, never the key.
 */
import {
  humanOptimizerFactory,
  llmOptimizerFactory,
  recordedRun,
  replayOptimizerFactory,
  servedAttackerConfig,
  templateOptimizerFactory,
} from '../../../attackers'
import { fetchLlmClientFactory } from '../../../adapters/endpoint-targets/chatBackend'
import { claimFromFile, needsJudge } from '../../../claims'
import {
  billingPrice,
  Controller,
  DEFAULT_PRICE_TABLE,
  unpricedCapMessage,
  type LLMClient,
  type LLMConfig,
  type ModelPrice,
  type OptimizerFactory,
} from '../../../core/engine'
import type { LiveLimits } from '../live/liveTypes'
import {
  attackerClashText,
  derivedAttackerLabel,
  findAttackerClashes,
  readTrajectory,
  slugOf,
  type AttackerConfig,
} from '../../../core/results'
import { referencesByTag, scopeOf, validateScope, type Forest, type SecurityDomain } from '../../../core/tags'
import { mergeTagReferences } from '../../../core/compliance'
import { forestFromManifest } from '../../../protocol'
import { setupAttackerConfig, tickedTemplates } from '../setup/attackerConfig'
import { checkClaim } from '../setup/claimDraft'
import { servedClaimMismatch } from '../setup/claimTarget'
import { connectServedOptimizer, servedLlmClientFactory, type ServedOptimizerSource } from '../../../protocol/optimizer'
import { kwargFields, kwargsOf } from '../setup/kwargsForm'
import { withDemoModel } from '../setup/demoModel'
import { checkNumber, numberOrThrow, RULES, SetupError } from '../setup/numbers'
import type { LlmEndpoint, Setup } from '../setup/setupTypes'
import { buildTarget, type BuiltTarget, type TargetSecrets } from './buildTarget'
import { browserPrompter } from './humanBridge'
import { resultsStorage, resultsWriter } from '../../../lib/browserResults'
import { holdSecrets } from '../../../lib/heldSecrets'

export interface ThreatModelNames {
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /**
   * Run k ≥ 2 of the same threat model (the frontier's sequential test): its own experiment, under the attacker
   * label `<derived label>-repeat-k`, since this browser keeps one results tree (the CLI puts repeat k in a tree of its own).
   */
  readonly repeat?: number
  /** A saved threat model's name: written beside its results (threat_model.json), so it travels with them. */
  readonly savedName?: string
}

export interface BuiltRun {
  readonly controllers: readonly Controller[]
  readonly target: BuiltTarget
  /** Things worth knowing that do not stop the run (non-antichain scopes...). */
  readonly notes: readonly string[]
  /** What the live view shows beside its numbers: the turn limit, an unpriced attacker model. */
  readonly limits: LiveLimits
}

export interface BuildEnv {
  readonly fetch: typeof fetch
  readonly origin: string
  /** Threat models at once (a sweep's cap); they share the target's capacity. */
  readonly parallel?: number
  /** The run's signal: the human attacker's open questions end with it. */
  readonly signal: AbortSignal
  /** A demo target's pause per step (livePace.ts): a single run watched live; none for sweeps and searches. */
  readonly paceMs?: number
}

/** The price typed in the form (null when both fields are blank: the table's on OpenAI's endpoint, else unpriced). */
function configuredPrice(e: LlmEndpoint): ModelPrice | null {
  const input = checkNumber(e.inputPrice, RULES.price)
  const output = checkNumber(e.outputPrice, RULES.price)
  if (input.error || output.error) throw new SetupError(input.error ?? output.error!)
  if (input.value === null && output.value === null) return null
  return { inputPerMillion: input.value ?? 0, outputPerMillion: output.value ?? 0 }
}

/** Billed as the client will bill it; a cost cap on an unpriced model is refused before anything runs. */
function priceOrRefuse(config: LLMConfig, e: LlmEndpoint, who: string, costCap: number | null): ModelPrice | null {
  const price = billingPrice(config.model, config.apiBase, DEFAULT_PRICE_TABLE, configuredPrice(e))
  if (price === null && costCap !== null) {
    throw new SetupError(
      `Cost cap: ${who}: ${unpricedCapMessage(config.model, config.apiBase)} (Input and Output $ / 1M tokens under Budget & models), or clear the cap`,
    )
  }
  return price
}

function llmConfig(e: LlmEndpoint, key: string, who: string): LLMConfig {
  if (e.model.trim() === '') throw new SetupError(`${who}: name a model`)
  return { model: e.model.trim(), apiBase: e.baseURL.trim() || null, apiKey: key || null }
}

/** Scope names → the target's own tag objects (superred compares tags by identity). */
export function resolveNames(domain: SecurityDomain, names: ThreatModelNames, notes: string[]) {
  const findings = validateScope(domain, [...names.scope], [...names.readOnly])
  const fatal = findings.find((f) => f.code === 'unknown_tag' || f.code === 'empty_scope')
  if (fatal) {
    const known = fatal.code === 'unknown_tag' ? ` The target's tags: ${domain.tags.map((t) => t.name).join(', ')}.` : ''
    throw new SetupError(`Threat model: ${fatal.message}.${known}`)
  }
  for (const f of findings) if (!notes.includes(f.message)) notes.push(f.message)
  const tags = (list: readonly string[]) => scopeOf(list.map((n) => domain.get(n)!))
  return { scope: tags(names.scope), readOnly: tags(names.readOnly) }
}

/** The attacker's factory and its configuration (what results record, and what its label is derived from). */
async function attackerOf(
  setup: Setup,
  laneKey: () => string,
  maxRuns: number,
  env: BuildEnv,
): Promise<{ factory: OptimizerFactory; config: AttackerConfig }> {
  const a = setup.attacker
  switch (a.kind) {
    case 'template': {
      const templates = tickedTemplates(a)
      if (templates.length === 0) throw new SetupError('Attacker: tick at least one payload template')
      return { factory: templateOptimizerFactory({ templates, injectOn: a.injectOn }), config: setupAttackerConfig(setup)! }
    }
    case 'llm':
      return {
        factory: llmOptimizerFactory({ injectOn: a.llmInjectOn, maxTurns: numberOrThrow(a.llmMaxTurns, RULES.maxTurns)! }),
        config: setupAttackerConfig(setup)!,
      }
    case 'replay': {
      if (a.replay === null) throw new SetupError('Attacker: pick the recorded run to replay')
      const file = await readTrajectory(resultsStorage(), a.replay.taskDir, a.replay.run)
      if (file === null) throw new SetupError(`Attacker: run ${a.replay.run} of ${a.replay.taskDir} is no longer in this browser's results`)
      const run = recordedRun(file.trajectory)
      if (run.length === 0) throw new SetupError('Attacker: the recorded run has no injections or declines to replay')
      return { factory: replayOptimizerFactory([run]), config: setupAttackerConfig(setup, run)! }
    }
    case 'human':
      return {
        factory: () => humanOptimizerFactory(browserPrompter(laneKey(), maxRuns, env.signal))(),
        config: setupAttackerConfig(setup)!,
      }
    case 'served':
      throw new Error('a served optimizer is connected once per run, by servedAttacker')
  }
}

/** The attacker's label for run `repeat` of a threat model: the derived label itself for the first. */
export function repeatLabel(label: string, repeat: number | undefined): string {
  return repeat === undefined || repeat <= 1 ? label : `${label}-repeat-${repeat}`
}

/** The served optimizer: its server's list read, the form's kwargs checked there, one session per task. */
async function servedAttacker(setup: Setup, token: string, env: BuildEnv): Promise<ServedOptimizerSource> {
  const d = setup.attacker.served
  if (d.url.trim() === '') throw new SetupError("Attacker: give the optimizer server's URL")
  if (d.name === '') throw new SetupError("Attacker: list the server's optimizers and pick one")
  try {
    return await connectServedOptimizer(
      d.url.trim(),
      d.name,
      (served) => {
        const { kwargs, issues } = kwargsOf(kwargFields(served.kwargs_schema), d.kwargs)
        const [field, issue] = Object.entries(issues)[0] ?? []
        if (field !== undefined) throw new SetupError(`Attacker: ${served.name}'s ${field} ${issue}`)
        return kwargs
      },
      { fetch: env.fetch, token: token || undefined },
    )
  } catch (e) {
    if (e instanceof SetupError) throw e
    throw new SetupError(`Attacker: ${(e as Error).message}`)
  }
}

export async function buildRun(
  setup: Setup,
  secrets: TargetSecrets & { attackerKey: string; judgeKey: string; optimizerToken?: string },
  forest: Forest,
  models: readonly ThreatModelNames[],
  env: BuildEnv,
): Promise<BuiltRun> {
  const t = setup.threat
  const maxRuns = numberOrThrow(t.maxRuns, RULES.maxRuns)!
  const costCap = numberOrThrow(t.costCap, RULES.costCap)
  const timeCap = numberOrThrow(t.timeCap, RULES.timeCap)
  const check = checkClaim(setup.claim)
  if (check.file === null) {
    const [where, message] = [...check.issues][0] ?? ['', 'not valid']
    if (setup.claim.tasks.length === 0) throw new SetupError('Claim: pick a shipped claim, or write at least one task')
    throw new SetupError(`Claim: ${where ? `${where}: ` : ''}${message}`)
  }
  // A demo target on a model: each task's config says so, and so do the results.
  const claimFile = withDemoModel(check.file, setup.target)
  const mismatch = servedClaimMismatch(setup)
  if (mismatch !== null) throw new SetupError(mismatch)
  if (models.length === 0) throw new SetupError('Threat model: nothing to run')
  // Whatever the model, the judge or the target echoes of them is masked where results are written.
  holdSecrets(Object.values(secrets))
  const isLlm = setup.attacker.kind === 'llm'
  const served = setup.attacker.kind === 'served' ? await servedAttacker(setup, secrets.optimizerToken ?? '', env) : null
  // A served optimizer calls the server's own model: only its name comes here, for usage and the results.
  const attackerLlm = served !== null ? served.llmConfig : isLlm ? llmConfig(t.attackerLlm, secrets.attackerKey, 'Attacker model') : null
  const judgeEndpoint = t.judgeSame ? t.attackerLlm : t.judgeLlm
  const judgeLlm = needsJudge(claimFile)
    ? llmConfig(judgeEndpoint, t.judgeSame ? secrets.attackerKey : secrets.judgeKey, 'Judge model')
    : null
  const attackerPrice = attackerLlm === null ? null : priceOrRefuse(attackerLlm, t.attackerLlm, 'Attacker model', costCap)
  const judgePrice = judgeLlm === null ? null : priceOrRefuse(judgeLlm, judgeEndpoint, 'Judge model', costCap)
  const clients = fetchLlmClientFactory({
    fetch: env.fetch,
    configured: attackerLlm && attackerPrice ? { [attackerLlm.model]: attackerPrice } : {},
  })
  const judgeClients = fetchLlmClientFactory({
    fetch: env.fetch,
    configured: judgeLlm && judgePrice ? { [judgeLlm.model]: judgePrice } : {},
  })
  // A person answers one pause at a time: their tasks run one after another.
  const targetSetup = setup.attacker.kind === 'human' ? { ...setup.target, concurrency: '1' } : setup.target
  const target = await buildTarget(targetSetup, secrets, forest, env)
  const notes: string[] = []
  const controllers: Controller[] = []
  // The tags' framework references for domain.json: the target's manifest's, then the designer's own (last word).
  const domainReferences = mergeTagReferences(
    target.manifest ? referencesByTag(forestFromManifest(target.manifest)) : new Map(),
    referencesByTag(forest),
  )
  for (const m of models) {
    const { scope, readOnly } = resolveNames(target.domain, m, notes)
    const judge = judgeLlm === null ? undefined : (): LLMClient => judgeClients(judgeLlm, costCap, env.signal)
    let key = ''
    const attacker =
      served !== null
        ? { factory: served.optimizerFactory, config: servedAttackerConfig(served.config) }
        : await attackerOf(setup, () => key, maxRuns, env)
    const controller = new Controller({
      optimizerFactory: attacker.factory,
      attackerConfig: attacker.config,
      targetFactory: target.factory,
      securityClaim: claimFromFile(claimFile, { judge }),
      scope,
      readOnly,
      llmConfig: attackerLlm,
      llmClientFactory: attackerLlm ? (served !== null ? servedLlmClientFactory : clients) : null,
      taskCostCapUsd: costCap,
      taskTimeCapS: timeCap,
      maxRunsPerTask: maxRuns,
      includeFeedback: t.includeFeedback,
      countEchoes: t.countEchoes,
      storage: resultsWriter(),
      overwrite: t.overwrite,
      domain: target.domain,
      domainReferences,
      // The label is derived from the configuration, as the CLI's is without --attacker-label: the same folder for the
      // same attacker; a frontier's run k ≥ 2 of a threat model adds -repeat-k, which no derived label ends with.
      attackerLabel: repeatLabel(derivedAttackerLabel(attacker.config), m.repeat),
      targetLabel: target.label,
      claimLabel: claimFile.name,
      threatModelName: m.savedName ?? null,
    })
    key = controller.info().key
    controllers.push(controller)
  }
  const keys = new Set(controllers.map((c) => c.label))
  if (keys.size !== controllers.length) throw new SetupError('Threat model: the same threat model is listed twice')
  await refuseAttackerClash(controllers, keys, t.overwrite)
  const limits: LiveLimits = {
    maxTurns: isLlm ? numberOrThrow(setup.attacker.llmMaxTurns, RULES.maxTurns) : null,
    unpricedModel: attackerLlm !== null && attackerPrice === null ? attackerLlm.model : null,
  }
  return { controllers, target, notes, limits }
}

/**
 * A folder this run would resume that holds another attacker configuration (a results tree of an older version,
 * or the one-in-four-billion label that two configurations share) is refused before anything runs; "rerun
 * finished tasks" reruns it instead (the engine keeps the old one in previous_NN/).
 */
async function refuseAttackerClash(controllers: readonly Controller[], dirs: ReadonlySet<string>, overwrite: boolean): Promise<void> {
  if (overwrite) return
  // One slug per attacker label: a frontier's repeats (-repeat-k) are labels, and so slugs, of their own.
  const metas = new Map(
    controllers.map((c) => {
      const meta = c.meta(null)
      return [slugOf(meta), meta] as const
    }),
  )
  for (const [slug, meta] of metas) {
    const [clash] = await findAttackerClashes(resultsStorage(), '', { slug, config: meta.attackerConfig!, belongs: (dir) => dirs.has(dir) })
    if (clash !== undefined) {
      throw new SetupError(
        `Attacker: ${attackerClashText(clash, clash.dir)}. Tick “Rerun finished tasks” to replace those results (the old ones are kept in previous_NN/).`,
      )
    }
  }
}
