/**
 * A trajectory file (`run_NNNNN.json`, `run_NNNNN.attacker.json`) printed
 * straight from the engine's items, as json.dumps(indent=2,
 * ensure_ascii=False) prints superred's: the same text that building each
 * item's JSON shape (semantics §6) and printing it through pyDumps gives.
 *
 * Why a printer of its own: trajectories are most of a results tree's bytes,
 * and a sweep prints one per run twice (the truth and the attacker's view).
 * Going through the shapes built an object per item and per descriptor,
 * scanned them for floats, and ran JSON.stringify with a gap over them; this
 * prints the fixed keys directly, and remembers what repeats: a descriptor is
 * the same Controllable or Observable object in every event that names it,
 * and the attacker's view holds the same item objects as the truth, so with a
 * shared `printed` map its file costs only the join.
 */
import { assertNever } from '../engine/assertNever'
import { isResponse, type Event, type EventResponse, type TrajectoryItem } from '../engine/events'
import type { ResultsSchemaVersion } from './format'
import { AT, descriptorText, evaluationText, tagText as tag, value } from './printParts'

function eventText(e: Event): string {
  const head = `{${AT[3]}"kind": "event",${AT[3]}"type": "${e.type}",${AT[3]}"event_id": ${value(e.eventId, 3)},${
    AT[3]}"timestamp": ${value(e.timestamp, 3)},${AT[3]}"security_domain": ${tag(e.securityDomain)}`
  switch (e.type) {
    case 'ControllablePreCallEvent':
      return `${head},${AT[3]}"controllable": ${descriptorText(e.controllable, 'value_type', e.controllable.valueType, 3)},${AT[3]}"request": ${value(e.request, 3)}${AT[2]}}`
    case 'ControllablePostCallEvent':
      return `${head},${AT[3]}"controllable": ${descriptorText(e.controllable, 'value_type', e.controllable.valueType, 3)},${AT[3]}"request": ${value(e.request, 3)},${
        AT[3]}"answer": ${value(e.answer, 3)}${AT[2]}}`
    case 'ObservableEvent':
      return `${head},${AT[3]}"observable": ${descriptorText(e.observable, 'observable_type', e.observable.observableType, 3)},${AT[3]}"content": ${value(e.content, 3)}${AT[2]}}`
    case 'RunEndEvent':
      return `${head},${AT[3]}"evaluation": ${e.evaluation === null ? 'null' : evaluationText(e.evaluation, 3)}${AT[2]}}`
    case 'RunStartEvent':
      return `${head}${AT[2]}}`
    default:
      return assertNever(e, 'event')
  }
}

function responseText(r: EventResponse, schema: ResultsSchemaVersion): string {
  const head = `{${AT[3]}"kind": "response",${AT[3]}"type": "${r.type}"`
  switch (r.type) {
    case 'ControllableInjection':
      return `${head},${AT[3]}"controllable": ${value(r.controllable.name, 3)},${AT[3]}"value": ${value(r.value, 3)}${AT[2]}}`
    case 'ControllableNoInjection':
      // Schema 4 (superred 0.3.0) has no declined_by.
      return schema === 4
        ? `${head},${AT[3]}"controllable": ${value(r.controllable.name, 3)}${AT[2]}}`
        : `${head},${AT[3]}"controllable": ${value(r.controllable.name, 3)},${AT[3]}"declined_by": ${value(r.declinedBy, 3)}${AT[2]}}`
    case 'RunEndResponse':
      return `${head},${AT[3]}"done": ${r.done}${AT[2]}}`
    case 'EventResponse':
      return `${head}${AT[2]}}`
    default:
      return assertNever(r, 'response')
  }
}

/** Item texts of one run, shared by the files that hold the same items (the truth and the attacker's view). */
export type PrintedItems = Map<TrajectoryItem, string>

/** The whole file for run `runNumber` holding `items`, in `schema`. */
export function trajectoryText(items: readonly TrajectoryItem[], runNumber: number, schema: ResultsSchemaVersion,
  printed: PrintedItems = new Map()): string {
  const head = `{${AT[1]}"schema_version": ${schema},${AT[1]}"run_number": ${runNumber},${AT[1]}"trajectory": `
  if (items.length === 0) return `${head}[]${AT[0]}}`
  const out: string[] = [`${head}[`]
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    let text = printed.get(item)
    if (text === undefined) {
      text = isResponse(item) ? responseText(item, schema) : eventText(item)
      printed.set(item, text)
    }
    out.push(i === 0 ? AT[2] : `,${AT[2]}`, text)
  }
  out.push(`${AT[1]}]${AT[0]}}`)
  // One join: a flat string, not a rope that the write path would flatten again.
  return out.join('')
}
