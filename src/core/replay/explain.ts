import type { CoverageModel } from './coverage'
import type { ViewSource } from './replay'
import type { ItemMark, PersistedItemLike } from './items'
import { surfaceName } from './items'
import { stepKind, stepWords, type StepWords } from './wording'
import { learnedWords, type Learned } from './learned'

/** Why the attacker could or could not see, or change, one item. */
export interface Explanation {
  readonly domain: string | null
  readonly visible: boolean
  /** True only for an injection point (a controllable's pre- or post-call) a scope tag covers. */
  readonly writable: boolean
  /** The shared per-kind words (wording.ts): badges and the presenter's sentence. */
  readonly words: StepWords
  /** Sentences, most important first. Plain text. */
  readonly lines: readonly string[]
  /** Tags to highlight on the forest: the item's domain and the granted tag covering it. */
  readonly tags: readonly string[]
  /** The attacker file and the recomputation disagree about this item. */
  readonly mismatch: boolean
}

export interface ExplainInput {
  readonly item: PersistedItemLike
  readonly domain: string | null
  readonly mark: ItemMark
  readonly coverage: CoverageModel
  /** Whether the attacker's view has this row, and where that view came from. */
  readonly attackerSaw: boolean
  readonly viewSource: ViewSource
  /** What of a hidden item reached the attacker through the evaluation's feedback (learned.ts). */
  readonly learned?: Learned | null
}

const list = (names: readonly string[]) => (names.length ? names.map((n) => `"${n}"`).join(', ') : 'nothing')

export function explain({ item, domain, mark, coverage, attackerSaw, viewSource, learned = null }: ExplainInput): Explanation {
  const c = coverage.cover(domain)
  const { scope, readOnly } = coverage.grant
  const lines: string[] = []
  const tags = new Set<string>()
  if (domain !== null) tags.add(domain)
  if (c.visibleBy) tags.add(c.visibleBy)
  const surface = surfaceName(item)
  const subject =
    domain === null
      ? 'This item has no security domain'
      : `This item's security domain is "${domain}"${surface ? ` (surface "${surface}")` : ''}`
  lines.push(`${subject}.`)

  if (domain === null) {
    lines.push(
      item.kind === 'response'
        ? 'It is a response whose event could not be found, so its domain is unknown and no grant can cover it.'
        : 'No granted tag can cover an item without a domain.',
    )
  } else if (c.unknownTag) {
    lines.push(`The forest in use has no tag named "${domain}", so no granted tag covers it.`)
  } else if (c.visibleBy === null) {
    lines.push(`No granted tag covers "${domain}": the scope grants ${list(scope)} and read-only grants ${list(readOnly)}.`)
  } else if (c.visibleBy === domain) {
    lines.push(`"${domain}" is granted itself (${c.visibleVia === 'scope' ? 'scope: read & write' : 'read only'}).`)
  } else {
    const path = coverage.lineage(domain)
    lines.push(
      `Granted tag "${c.visibleBy}" (${c.visibleVia === 'scope' ? 'scope: read & write' : 'read only'}) covers "${domain}", its descendant via ${path.slice(0, path.indexOf(c.visibleBy) + 1).join(' → ')}.`,
    )
  }

  const predicted = c.visibleBy !== null
  const declinedBy = mark === 'declined-optimizer' ? 'optimizer' : mark === 'declined-scope' ? 'scope' : null
  const words = stepWords({
    kind: stepKind(item),
    visible: viewSource !== 'recomputed' ? attackerSaw : predicted,
    access: c.writeBy !== null ? 'scope' : c.visibleBy !== null ? 'read-only' : 'none',
    writeBy: c.writeBy,
    declinedBy,
    learnedVia: learned?.via ?? null,
  })
  lines.push(words.writeLine)
  if (
    item.kind === 'response' &&
    item.type === 'ControllableNoInjection' &&
    (item.declined_by === null || item.declined_by === undefined)
  ) {
    lines.push('This tree (schema 4) does not record who declined; it is inferred from whether the scope covers the surface.')
  }

  const mismatch = viewSource !== 'recomputed' && coverage.mode === 'forest' && predicted !== attackerSaw
  if (viewSource === 'attacker-file') {
    lines.push(
      attackerSaw
        ? 'The attacker file records that the optimizer saw this item.'
        : 'The attacker file does not contain this item: the optimizer never saw it.',
    )
  } else if (viewSource === 'derived') {
    lines.push(
      attackerSaw
        ? "The engine's filter, applied to this run with the experiment's forest (domain.json), passes this item: the optimizer saw it."
        : "The engine's filter, applied to this run with the experiment's forest (domain.json), holds this item back: the optimizer never saw it.",
    )
  }
  if (mismatch) {
    lines.push(`Mismatch: the forest and the task's grant say the attacker ${predicted ? 'should have seen' : 'should not have seen'} it.`)
  }
  if (learned) {
    lines.push(
      `Yet the attacker learned it at the end of the run, ${learnedWords(learned)}: the RunEndEvent it received carries the ` +
        "evaluation's feedback, which superred never filters by content.",
    )
  }
  if (coverage.mode === 'names-only') {
    lines.push(
      'Names only: no forest is attached, so a tag counts as covered only when its own name is granted. A child of a granted tag is shown as hidden here although superred would let the attacker see it. Attach the forest to check ancestry.',
    )
  }
  return {
    domain,
    visible: viewSource !== 'recomputed' ? attackerSaw : predicted,
    writable: words.writable,
    words,
    lines,
    tags: [...tags],
    mismatch,
  }
}
