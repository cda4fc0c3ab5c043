/**
 * Pieces of the results files' text, printed as json.dumps(indent=2, ensure_ascii=False) prints them, for the
 * printers that write a file's fixed keys directly (trajectoryText, taskText, experimentText) instead of building its
 * JSON shape.
 */
import type { Controllable, EvaluationResult, Observable, Score } from '../engine/types'
import type { SecurityDomainTag } from '../tags'
import { pyDumps, pyFloatRepr } from './pyjson'

const OPTIONS = { indent: 2, ensureAscii: false } as const

/** Line starts by depth: the file's own keys sit at depth 1. */
export const AT = ['\n', '\n  ', '\n    ', '\n      ', '\n        ', '\n          ', '\n            ', '\n              '] as const

/** A value at `depth`: strings (nearly every value) through JSON.stringify, which escapes as json.dumps does with ensure_ascii off. */
export function value(v: unknown, depth: number): string {
  return typeof v === 'string' ? JSON.stringify(v) : pyDumps(v, OPTIONS, depth)
}

/** A number Python holds as an int (printed as pyDumps prints a plain number). */
export const int = (n: number): string => (Number.isInteger(n) ? String(n) : pyFloatRepr(n))

/** A number Python holds as a float, or null. */
export const float = (n: number | null): string => (n === null ? 'null' : pyFloatRepr(n))

/** A tag as results name it. */
const tagText = (t: SecurityDomainTag | null): string => (t === null ? 'null' : JSON.stringify(t.name))

/** A list at `depth` of items already printed one deeper. */
export function listText(items: readonly string[], depth: number): string {
  return items.length === 0 ? '[]' : `[${AT[depth + 1]}${items.join(`,${AT[depth + 1]}`)}${AT[depth]}]`
}

/** A list of strings at `depth`. */
export function namesText(names: readonly string[], depth: number): string {
  return listText(
    names.map((n) => JSON.stringify(n)),
    depth,
  )
}

/** A score at `depth` (its fields one deeper). */
export function scoreText(s: Score, depth: number): string {
  const at = AT[depth + 1]
  return `{${at}"name": ${value(s.name, depth + 1)},${at}"value": ${pyFloatRepr(s.value)},${at}"security_domain": ${tagText(s.securityDomain)}${AT[depth]}}`
}

/** An evaluation at `depth`. */
export function evaluationText(e: EvaluationResult, depth: number): string {
  const at = AT[depth + 1]
  const names = Object.keys(e.subScores)
  let subs = '{}'
  if (names.length > 0) {
    subs = `{${names.map((k) => `${AT[depth + 2]}${JSON.stringify(k)}: ${scoreText(e.subScores[k], depth + 2)}`).join(',')}${at}}`
  }
  return `{${at}"success": ${e.success},${at}"primary_score": ${scoreText(e.primaryScore, depth + 1)},${at}"sub_scores": ${subs},${
    at
  }"rationale": ${value(e.rationale, depth + 1)}${AT[depth]}}`
}

/** Descriptor texts by depth, then by object: a target hands the same Controllable and Observable objects to every event. */
const descriptors: Array<WeakMap<Controllable | Observable, string>> = []

/** A controllable's or an observable's descriptor at `depth`: they differ only in the name of their type field. */
export function descriptorText(
  d: Controllable | Observable,
  typeKey: 'value_type' | 'observable_type',
  type: string,
  depth: number,
): string {
  const printed = (descriptors[depth] ??= new WeakMap())
  let text = printed.get(d)
  if (text === undefined) {
    const at = AT[depth + 1]
    text = `{${at}"name": ${value(d.name, depth + 1)},${at}"security_domain": ${tagText(d.securityDomain)},${at}"description": ${value(
      d.description,
      depth + 1,
    )},${at}"${typeKey}": ${value(type, depth + 1)}${AT[depth]}}`
    printed.set(d, text)
  }
  return text
}
