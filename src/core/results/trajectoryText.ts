/**
 * Trajectory files (`run_NNNNN.json`, and the rare `run_NNNNN.attacker.json`: attackerView.ts) printed
 * straight from the engine's items, as json.dumps(indent=2,
 * ensure_ascii=False) prints superred's: the same text that building each
 * item's JSON shape (semantics §6) and printing it through pyDumps gives.
 *
 * Why a printer of its own: trajectories are most of a results tree's bytes,
 * and a sweep prints one per run.
 * Going through the shapes built an object per item and per descriptor,
 * scanned them for floats, and ran JSON.stringify with a gap over them; this
 * prints the fixed keys directly.
 *
 * Printing goes in two steps, so that the costly one can run on another
 * thread: `trajectoryJob` takes from the items what their text needs, as
 * plain values a structured clone copies cheaply (a sweep's jobs are about a
 * third of the bytes of their texts); `trajectoryTexts` prints the files from
 * that alone. What repeats is numbered once: an item the attacker's view
 * shares with the truth, a descriptor (the same Controllable or Observable
 * object in every event that names it). What only this side can print is
 * printed here: descriptors, evaluations and non-string values (floats are
 * PyFloat objects, which a clone would turn into plain ones).
 */
import { assertNever } from '../engine/assertNever'
import type { EventType, ResponseType, TrajectoryItem } from '../engine/events'
import type { Controllable, Observable } from '../engine/types'
import type { ResultsSchemaVersion } from './format'
import { AT, descriptorText, evaluationText, value } from './printParts'

/** Item types in a job by number (index). */
const TYPES = [
  'ObservableEvent',
  'ControllablePreCallEvent',
  'ControllablePostCallEvent',
  'RunEndEvent',
  'RunStartEvent',
  'ControllableInjection',
  'ControllableNoInjection',
  'RunEndResponse',
  'EventResponse',
] as const satisfies ReadonlyArray<EventType | ResponseType>
type ItemType = (typeof TYPES)[number]
const TYPE_NUMBER = new Map<ItemType, number>(TYPES.map((t, i) => [t, i]))
/** Types from this number on are responses. */
const FIRST_RESPONSE = TYPE_NUMBER.get('ControllableInjection')!

/**
 * Slots an item takes in `TrajectoryJob.items`. An event: its type, event_id, timestamp, domain, then up to three of
 * its own (descriptor, request or content or evaluation, answer). A response: its type, controllable, then its value,
 * declined_by or done. A text slot holds a string to quote, or the number of a piece already printed.
 */
const SLOTS = 7

type Slot = string | number | boolean | null

/** A task's trajectory files as plain values, for `trajectoryTexts` (on this thread or, cloned, on another). */
export interface TrajectoryJob {
  readonly schema: ResultsSchemaVersion
  /** Texts printed by `trajectoryJob`, which item slots name by number. */
  readonly pieces: string[]
  /** Every item the files hold, SLOTS slots each, numbered by position. */
  readonly items: Slot[]
  /** One per file: its run number and its items' numbers, in order. */
  readonly files: Array<{ readonly run: number; readonly items: number[] }>
}

/** The job for files of `items` (a run's truth, its attacker's view, ...); items shared between files are taken once. */
export function trajectoryJob(
  files: ReadonlyArray<{ readonly run: number; readonly items: readonly TrajectoryItem[] }>,
  schema: ResultsSchemaVersion,
): TrajectoryJob {
  const job = new JobBuilder()
  return { schema, pieces: job.pieces, items: job.items, files: files.map((f) => ({ run: f.run, items: f.items.map(job.numberOf) })) }
}

/** Methods rather than closures: a sweep builds a job per task, and the slots are pushed in order (a packed array clones fastest). */
class JobBuilder {
  readonly pieces: string[] = []
  readonly items: Slot[] = []
  private readonly numbers = new Map<TrajectoryItem, number>()
  private readonly descriptors = new Map<Controllable | Observable, number>()

  readonly numberOf = (item: TrajectoryItem): number => {
    const known = this.numbers.get(item)
    if (known !== undefined) return known
    const n = this.numbers.size
    this.numbers.set(item, n)
    const items = this.items
    items.push(TYPE_NUMBER.get(item.type)!)
    switch (item.type) {
      case 'ControllableInjection':
        items.push(this.text(item.controllable.name), this.text(item.value), null, null, null, null)
        return n
      case 'ControllableNoInjection':
        items.push(this.text(item.controllable.name), this.text(item.declinedBy), null, null, null, null)
        return n
      case 'RunEndResponse':
        items.push(null, item.done, null, null, null, null)
        return n
      case 'EventResponse':
        items.push(null, null, null, null, null, null)
        return n
      default:
        break
    }
    items.push(this.text(item.eventId), this.text(item.timestamp), item.securityDomain === null ? null : item.securityDomain.name)
    switch (item.type) {
      case 'ObservableEvent':
        items.push(this.descriptor(item.observable, 'observable_type', item.observable.observableType), this.text(item.content), null)
        return n
      case 'ControllablePreCallEvent':
        items.push(this.descriptor(item.controllable, 'value_type', item.controllable.valueType), this.text(item.request), null)
        return n
      case 'ControllablePostCallEvent':
        items.push(
          this.descriptor(item.controllable, 'value_type', item.controllable.valueType),
          this.text(item.request),
          this.text(item.answer),
        )
        return n
      case 'RunEndEvent':
        items.push(item.evaluation === null ? null : this.piece(evaluationText(item.evaluation, 3)), null, null)
        return n
      case 'RunStartEvent':
        items.push(null, null, null)
        return n
      default:
        return assertNever(item, 'trajectory item')
    }
  }

  private piece(text: string): number {
    return this.pieces.push(text) - 1
  }

  private text(v: unknown): Slot {
    return typeof v === 'string' ? v : this.piece(value(v, 3))
  }

  private descriptor(d: Controllable | Observable, typeKey: 'value_type' | 'observable_type', type: string): number {
    let p = this.descriptors.get(d)
    if (p === undefined) {
      p = this.piece(descriptorText(d, typeKey, type, 3))
      this.descriptors.set(d, p)
    }
    return p
  }
}

/** The job's files' texts, in its order; each item is printed once, however many files hold it. */
export function trajectoryTexts(job: TrajectoryJob): string[] {
  const { schema, pieces, items } = job
  const printed: Array<string | undefined> = []
  const text = (slot: Slot) => (typeof slot === 'string' ? JSON.stringify(slot) : pieces[slot as number])
  const itemText = (n: number): string => {
    const at = n * SLOTS
    const number = items[at] as number
    const type = TYPES[number]
    if (type === undefined) throw new Error(`trajectory job: item ${n} has no type`)
    const head = `{${AT[3]}"kind": "${number < FIRST_RESPONSE ? 'event' : 'response'}",${AT[3]}"type": "${type}"`
    switch (type) {
      case 'ControllableInjection':
        return `${head},${AT[3]}"controllable": ${text(items[at + 1])},${AT[3]}"value": ${text(items[at + 2])}${AT[2]}}`
      case 'ControllableNoInjection':
        // Schema 4 (superred 0.3.0) has no declined_by.
        return schema === 4
          ? `${head},${AT[3]}"controllable": ${text(items[at + 1])}${AT[2]}}`
          : `${head},${AT[3]}"controllable": ${text(items[at + 1])},${AT[3]}"declined_by": ${text(items[at + 2])}${AT[2]}}`
      case 'RunEndResponse':
        return `${head},${AT[3]}"done": ${items[at + 2]}${AT[2]}}`
      case 'EventResponse':
        return `${head}${AT[2]}}`
      default:
        break
    }
    const domain = items[at + 3]
    const event = `${head},${AT[3]}"event_id": ${text(items[at + 1])},${AT[3]}"timestamp": ${text(items[at + 2])},${
      AT[3]
    }"security_domain": ${domain === null ? 'null' : JSON.stringify(domain)}`
    switch (type) {
      case 'ControllablePreCallEvent':
        return `${event},${AT[3]}"controllable": ${pieces[items[at + 4] as number]},${AT[3]}"request": ${text(items[at + 5])}${AT[2]}}`
      case 'ControllablePostCallEvent':
        return `${event},${AT[3]}"controllable": ${pieces[items[at + 4] as number]},${AT[3]}"request": ${text(items[at + 5])},${
          AT[3]
        }"answer": ${text(items[at + 6])}${AT[2]}}`
      case 'ObservableEvent':
        return `${event},${AT[3]}"observable": ${pieces[items[at + 4] as number]},${AT[3]}"content": ${text(items[at + 5])}${AT[2]}}`
      case 'RunEndEvent':
        return `${event},${AT[3]}"evaluation": ${items[at + 4] === null ? 'null' : pieces[items[at + 4] as number]}${AT[2]}}`
      case 'RunStartEvent':
        return `${event}${AT[2]}}`
      default:
        return assertNever(type, 'trajectory item type')
    }
  }
  return job.files.map((file) => {
    const head = `{${AT[1]}"schema_version": ${schema},${AT[1]}"run_number": ${file.run},${AT[1]}"trajectory": `
    if (file.items.length === 0) return `${head}[]${AT[0]}}`
    const out: string[] = [`${head}[`]
    for (let i = 0; i < file.items.length; i++) {
      const n = file.items[i]
      out.push(i === 0 ? AT[2] : `,${AT[2]}`, (printed[n] ??= itemText(n)))
    }
    out.push(`${AT[1]}]${AT[0]}}`)
    // One join: a flat string, not a rope that the write path would flatten again.
    return out.join('')
  })
}

/** The whole file for run `runNumber` holding `items`, in `schema`. */
export function trajectoryText(items: readonly TrajectoryItem[], runNumber: number, schema: ResultsSchemaVersion): string {
  return trajectoryTexts(trajectoryJob([{ run: runNumber, items }], schema))[0]
}
