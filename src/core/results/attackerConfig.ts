/**
 * An attacker's full configuration (a redscope extra, `attacker_config.json` at the experiment's root): what makes
 * two attackers of one kind the same measurement. superred's identity hash names only the attacker's label, so
 * two template attackers with other payloads would share a folder, and the second would resume the first's
 * verdict. redscope keeps that hash exactly as it is (interchange depends on it) and instead derives the label
 * from the configuration (`template-3f2a9c1b`: the kind and a short hash of its canonical JSON), so a changed
 * attacker lands in its own folder; a label the user forces is checked against what the folder holds.
 *
 * A configuration is plain JSON with a `kind`: template {templates, inject_on}, llm {model, api_base,
 * inject_on, temperature, max_tokens, history_runs, system_prompt}, replay {source, answers}, human {}, and room
 * for others (a served superred optimizer: {kind: 'optimizer', package, kwargs}). Secrets never enter it.
 */
import { ATTACKER_CONFIG_FILE, AttackerConfigFile, type AttackerConfig, type JsonValue } from './format'
import { pyDumps } from './pyjson'
import { sha256Hex } from './sha256'
import { readOptional } from './reader'
import { joinPath, type Storage } from './storage'

export type { AttackerConfig, JsonValue }

/** Keys whose values are credentials: dropped wherever they appear, so no builder can leak one into results. */
const SECRET_KEY = /^(api[_-]?key|.*token|.*secret|.*password|authorization|headers?|cookie)$/i

function withoutSecrets(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, JsonValue> = {}
  for (const [k, v] of Object.entries(value as Record<string, JsonValue>)) if (!SECRET_KEY.test(k)) out[k] = withoutSecrets(v)
  return out
}

/** A configuration as results record it: secret-looking keys removed. */
export function attackerConfig(config: AttackerConfig): AttackerConfig {
  return withoutSecrets(config) as AttackerConfig
}

/** Compact, key-sorted, ASCII-escaped JSON (the identity hash's own form): equal configurations print equal. */
export function canonicalAttackerConfig(config: AttackerConfig): string {
  return pyDumps(config, { sortKeys: true })
}

export function attackerConfigHash(config: AttackerConfig): string {
  return sha256Hex(canonicalAttackerConfig(config))
}

/**
 * `template-3f2a9c1b`: the label redscope gives an attacker unless the user names it. A served superred optimizer
 * goes by its served name (`PAIR-3f2a9c1b`), as superred labels an optimizer by its factory's name.
 */
export function derivedAttackerLabel(config: AttackerConfig): string {
  const name = config.kind === 'served-optimizer' && typeof config.name === 'string' ? config.name.replace(/[^A-Za-z0-9_.-]+/g, '_') : ''
  return `${name === '' ? config.kind : name}-${attackerConfigHash(config).slice(0, 8)}`
}

export function sameAttackerConfig(a: AttackerConfig | null, b: AttackerConfig | null): boolean {
  return a !== null && b !== null && canonicalAttackerConfig(a) === canonicalAttackerConfig(b)
}

/** Top-level keys whose values differ (a clash message says what changed). */
export function differingKeys(a: AttackerConfig, b: AttackerConfig): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
  return keys.filter((k) => pyDumps(a[k] ?? null, { sortKeys: true }) !== pyDumps(b[k] ?? null, { sortKeys: true }))
}

const clip = (s: string, max = 40) => {
  const flat = s.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
const quoted = (s: string) => `"${clip(s)}"`
const INJECTS: Readonly<Record<string, string>> = { pre: 'before calls', post: 'after calls', both: 'before and after calls' }
const injects = (on: JsonValue | undefined) => (typeof on === 'string' ? `injected ${INJECTS[on] ?? on}` : null)
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function valueText(v: JsonValue): string {
  if (typeof v === 'string') return quoted(v)
  if (Array.isArray(v))
    return `[${v.length <= 3 ? v.map(valueText).join(', ') : `${v.slice(0, 3).map(valueText).join(', ')}, … ${v.length - 3} more`}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${valueText(x)}`)
      .join(', ')}}`
  return String(v)
}

/** One line a person reads: `template, 2 payloads ("{goal}", "Ignore previous…"), injected before calls`. */
export function describeAttackerConfig(config: AttackerConfig): string {
  const c = config as Record<string, JsonValue>
  const parts: Array<string | null> = [config.kind]
  switch (config.kind) {
    case 'template': {
      const templates = Array.isArray(c.templates) ? (c.templates as JsonValue[]).map(String) : []
      const shown = templates.slice(0, 3).map(quoted).join(', ') + (templates.length > 3 ? `, … ${templates.length - 3} more` : '')
      parts.push(`${plural(templates.length, 'payload')} (${shown})`, injects(c.inject_on))
      break
    }
    case 'llm':
      parts.push(
        `model ${String(c.model)}${typeof c.api_base === 'string' ? ` at ${c.api_base}` : ''}`,
        typeof c.temperature === 'number' ? `temperature ${c.temperature}` : null,
        injects(c.inject_on),
      )
      break
    case 'replay':
      parts.push(
        `of ${typeof c.source === 'string' ? c.source : 'a recorded run'}`,
        Array.isArray(c.answers) ? plural(c.answers.length, 'recorded answer') : null,
      )
      break
    case 'human':
      parts.push('a person answers each pause')
      break
    default:
      parts.push(
        ...Object.entries(c)
          .filter(([k]) => k !== 'kind')
          .map(([k, v]) => `${k} ${valueText(v)}`),
      )
  }
  return parts.filter((p): p is string => p !== null).join(', ')
}

/**
 * What an experiment folder records of its attacker, for the check before a resume: its configuration, or null
 * when it records none (superred's, an older redscope's) or one that does not read (then it is not resumed either).
 */
export async function readAttackerConfig(storage: Storage, experimentDir: string): Promise<AttackerConfig | null> {
  try {
    return (await readOptional(storage, joinPath(experimentDir, ATTACKER_CONFIG_FILE), AttackerConfigFile))?.config ?? null
  } catch {
    return null
  }
}

/** A folder of this identity holding another configuration (or none recorded). */
export interface AttackerClash {
  /** The experiment folder, relative to the storage root. */
  readonly dir: string
  readonly held: AttackerConfig | null
  readonly asked: AttackerConfig
}

const named = (c: AttackerConfig) => `${describeAttackerConfig(c)} [${attackerConfigHash(c).slice(0, 8)}]`

/** `{where} holds the results of another attacker configuration: it holds …; this run asks for … (they differ in …)`. */
export function attackerClashText(clash: AttackerClash, where: string): string {
  const held =
    clash.held === null
      ? 'it holds no record of its attacker configuration (written by superred or an older redscope)'
      : `it holds ${named(clash.held)}`
  const differ = clash.held === null ? '' : ` (they differ in ${differingKeys(clash.held, clash.asked).join(', ')})`
  return `${where} holds the results of another attacker configuration: ${held}; this run asks for ${named(clash.asked)}${differ}`
}

/** Raised when a run would resume an experiment whose attacker configuration is not this run's. */
export class AttackerClashError extends Error {
  readonly clash: AttackerClash

  constructor(clash: AttackerClash) {
    super(attackerClashText(clash, clash.dir))
    this.name = 'AttackerClashError'
    this.clash = clash
  }
}

export interface ClashQuery {
  /** The experiments' shared slug (`attacker__target__claim__model`): only folders named `{slug}-…` are read. */
  readonly slug: string
  readonly config: AttackerConfig
  /** Whether the folder is one this run would open (given its recorded experiment block's scope, when it has one). */
  readonly belongs: (
    dir: string,
    experiment: { readonly scope: readonly string[]; readonly read_only: readonly string[] } | null,
  ) => boolean
}

/**
 * Folders under `root` that this run would resume and that hold another attacker configuration, found before
 * anything is written. One listing of the root; only the folders of this slug are read.
 */
export async function findAttackerClashes(storage: Storage, root: string, query: ClashQuery): Promise<AttackerClash[]> {
  let entries
  try {
    entries = await storage.list(root)
  } catch {
    return []
  }
  const clashes: AttackerClash[] = []
  for (const entry of entries) {
    if (entry.kind !== 'dir' || !entry.name.startsWith(`${query.slug}-`)) continue
    const dir = joinPath(root, entry.name)
    const experiment = await experimentBlock(storage, dir)
    if (!query.belongs(entry.name, experiment)) continue
    const held = await readAttackerConfig(storage, dir)
    if (!sameAttackerConfig(held, query.config)) clashes.push({ dir, held, asked: query.config })
  }
  return clashes
}

async function experimentBlock(storage: Storage, dir: string): Promise<{ scope: string[]; read_only: string[] } | null> {
  try {
    const e = (
      JSON.parse(await storage.readText(joinPath(dir, 'manifest.json'))) as { experiment?: { scope?: unknown; read_only?: unknown } }
    ).experiment
    const names = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
    return e === undefined ? null : { scope: names(e.scope), read_only: names(e.read_only) }
  } catch {
    return null
  }
}
