/**
 * The words the viewer, the presenter and the exported finding use for one
 * step: what kind of item it is, in plain words (the event's class name is
 * kept for engineers, on demand), and only what is true of that kind.
 *
 * Only the pre- and post-calls of controllables are injection points: there,
 * the optimizer is asked what to inject when a scope tag covers the surface,
 * and the framework declines by itself otherwise. An observation, a response
 * or the end of a run is never "writable", whatever the grant.
 *
 * One numbering of steps everywhere: step N is item N-1 of the full trajectory.
 */
import type { PersistedItemLike } from './items'

export type StepKind = 'pre-call' | 'post-call' | 'observation' | 'injection' | 'no-injection' | 'run-end' | 'run-end-response' | 'other'

/** How the grant reaches the item's security domain: a scope tag (read & write), only read-only, or nothing. */
export type Access = 'scope' | 'read-only' | 'none'

export function stepKind(item: Pick<PersistedItemLike, 'type'>): StepKind {
  switch (item.type) {
    case 'ControllablePreCallEvent':
      return 'pre-call'
    case 'ControllablePostCallEvent':
      return 'post-call'
    case 'ObservableEvent':
      return 'observation'
    case 'ControllableInjection':
      return 'injection'
    case 'ControllableNoInjection':
      return 'no-injection'
    case 'RunEndEvent':
      return 'run-end'
    case 'RunEndResponse':
      return 'run-end-response'
    default:
      return 'other'
  }
}

export const isInjectionPoint = (kind: StepKind) => kind === 'pre-call' || kind === 'post-call'

/** The step number people read, link to and export: 1-based. Item index -1 (attacker-only row) has none. */
export function stepNumber(itemIndex: number): number | null {
  return itemIndex >= 0 ? itemIndex + 1 : null
}

/** The item index a step number names (deep links carry step numbers). */
export function itemIndexOfStep(step: number): number {
  return step - 1
}

const PLAIN: Readonly<Record<StepKind, string>> = {
  'pre-call': 'call before the target uses a controllable',
  'post-call': 'call after the target produced an answer',
  observation: 'observation',
  injection: 'injection',
  'no-injection': 'no injection',
  'run-end': 'end of the run',
  'run-end-response': 'reply to the end of the run',
  other: 'item',
}

/** Plain words for the item's kind; unknown kinds keep their own name (it is all there is to say). */
export function plainKind(item: Pick<PersistedItemLike, 'type'>): string {
  const kind = stepKind(item)
  return kind === 'other' ? item.type : PLAIN[kind]
}

/** Plain words for who declined an injection (`declined_by` in the file). */
export function declinedByWords(by: string | null | undefined): string {
  if (by === 'scope') return 'declined by the framework: the surface is outside the scope'
  if (by === 'optimizer') return 'declined by the optimizer'
  return 'declined (this tree does not record by whom)'
}

export interface StepWordsInput {
  readonly kind: StepKind
  /** Whether the attacker saw the item. */
  readonly visible: boolean
  readonly access: Access
  /** The scope tag covering the item (when access is 'scope'). */
  readonly writeBy?: string | null
  /** For a no-injection: who declined, when the file says. */
  readonly declinedBy?: string | null
  /** For an item hidden during the run: where its text reached the attacker all the same ("the evaluation's rationale"). */
  readonly learnedVia?: string | null
}

export interface StepWords {
  /** Short verdicts for badges. */
  readonly seenVerdict: string
  readonly writeVerdict: 'Writable' | 'Not writable' | 'Injected' | 'Not injected' | 'Not an injection point'
  /** True only for an injection point a scope tag covers. */
  readonly writable: boolean
  /** One sentence for the presenter, in large type. */
  readonly presenterLine: string
  /** The sentence about writing, for the explanation list. */
  readonly writeLine: string
}

const q = (name: string | null | undefined) => (name ? `"${name}"` : 'a scope tag')

/** What is true of one step, per kind, visibility and access: the one source of these words. */
export function stepWords({ kind, visible, access, writeBy, declinedBy, learnedVia = null }: StepWordsInput): StepWords {
  const learned = !visible && learnedVia !== null
  const seenVerdict = visible ? 'Seen by the attacker' : learned ? `Seen by the attacker via ${learnedVia}` : 'Hidden from the attacker'
  const seen = visible
    ? 'The attacker saw this.'
    : learned
      ? `The attacker could not see this during the run, but learned it at its end via ${learnedVia}.`
      : 'The attacker could not see this.'
  if (isInjectionPoint(kind)) {
    const writable = access === 'scope'
    const writeLine = writable
      ? `Writable: the scope tag ${q(writeBy)} covers it, so the optimizer was asked what to inject.`
      : access === 'read-only'
        ? 'Not writable: only read-only access covers it, so the framework declined any injection by itself (declined by the scope) without asking the optimizer.'
        : 'Not writable: it is outside the scope, so the framework declined any injection by itself (declined by the scope) without asking the optimizer.'
    return {
      seenVerdict,
      writable,
      writeVerdict: writable ? 'Writable' : 'Not writable',
      writeLine,
      presenterLine: `${seen} ${writable ? 'It could write here.' : 'It could not write here.'}`,
    }
  }
  const writeLine = (() => {
    switch (kind) {
      case 'observation':
        return 'An observation: the target reports it, and nobody injects into it, whatever the grant.'
      case 'injection':
        return 'The answer at the injection point above: the optimizer wrote this value.'
      case 'no-injection':
        return declinedBy === 'optimizer'
          ? 'The answer at the injection point above: the optimizer was asked and chose not to inject.'
          : declinedBy === 'scope'
            ? 'The answer at the injection point above: the framework declined by itself, without asking the optimizer (the surface is outside the scope).'
            : 'The answer at the injection point above: no injection (this tree does not record who declined).'
      case 'run-end':
        return 'The end of the run: nothing is injected here; the optimizer may receive the evaluation as feedback.'
      case 'run-end-response':
        return "The optimizer's reply to the end of the run: nothing is injected here."
      default:
        return 'Not an injection point: only calls at a controllable are.'
    }
  })()
  const presenterWrite =
    kind === 'injection'
      ? 'The attacker wrote here.'
      : kind === 'no-injection'
        ? 'Nothing was written here.'
        : 'Not an injection point: nothing is written here.'
  // The answer at an injection point is where the injection is: it says what happened there, not "not an injection point".
  const writeVerdict = kind === 'injection' ? 'Injected' : kind === 'no-injection' ? 'Not injected' : 'Not an injection point'
  return { seenVerdict, writable: false, writeVerdict, writeLine, presenterLine: `${seen} ${presenterWrite}` }
}
