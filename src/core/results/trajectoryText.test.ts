/**
 * The trajectory printer against the generic route it replaced: each item's
 * JSON shape (semantics §6, spelled out here), converted to the schema and
 * printed by pyDumps as json.dumps(indent=2, ensure_ascii=False). Items are
 * drawn at random over every type and the awkward values: floats Python and
 * JavaScript print differently, non-ASCII and control characters, null
 * domains, sub-scores, non-string observable content.
 */
import { describe, expect, it } from 'vitest'
import {
  injection,
  isResponse,
  noInjection,
  observableEvent,
  plainResponse,
  postCallEvent,
  preCallEvent,
  runEndEvent,
  runEndResponse,
  runStartEvent,
  type Event,
  type EventResponse,
  type TrajectoryItem,
} from '../engine/events'
import { controllable, evaluationResult, observable, score, type EvaluationResult, type Score } from '../engine/types'
import { stubForest } from '../engine/testkit'
import type { SecurityDomainTag } from '../tags'
import { pyDumps, pyFloat } from './pyjson'
import { trajectoryJob, trajectoryText, trajectoryTexts } from './trajectoryText'
import { seededDraws } from '../../testing/seededRandom'

const name = (t: SecurityDomainTag | null) => t?.name ?? null
const scoreShape = (s: Score) => ({ name: s.name, value: pyFloat(s.value), security_domain: name(s.securityDomain) })
const evaluationShape = (e: EvaluationResult) => ({
  success: e.success,
  primary_score: scoreShape(e.primaryScore),
  sub_scores: Object.fromEntries(Object.entries(e.subScores).map(([k, v]) => [k, scoreShape(v)])),
  rationale: e.rationale,
})

function shape(item: TrajectoryItem): Record<string, unknown> {
  if (isResponse(item)) {
    const r: EventResponse = item
    const base = { kind: 'response', type: r.type }
    switch (r.type) {
      case 'ControllableInjection':
        return { ...base, controllable: r.controllable.name, value: r.value }
      case 'ControllableNoInjection':
        return { ...base, controllable: r.controllable.name, declined_by: r.declinedBy }
      case 'RunEndResponse':
        return { ...base, done: r.done }
      default:
        return base
    }
  }
  const e: Event = item
  const base = { kind: 'event', type: e.type, event_id: e.eventId, timestamp: e.timestamp, security_domain: name(e.securityDomain) }
  switch (e.type) {
    case 'ControllablePreCallEvent':
    case 'ControllablePostCallEvent': {
      const c = e.controllable
      const desc = { name: c.name, security_domain: name(c.securityDomain), description: c.description, value_type: c.valueType }
      return e.type === 'ControllablePreCallEvent'
        ? { ...base, controllable: desc, request: e.request }
        : { ...base, controllable: desc, request: e.request, answer: e.answer }
    }
    case 'ObservableEvent': {
      const o = e.observable
      return {
        ...base,
        observable: {
          name: o.name,
          security_domain: name(o.securityDomain),
          description: o.description,
          observable_type: o.observableType,
        },
        content: e.content,
      }
    }
    case 'RunEndEvent':
      return { ...base, evaluation: e.evaluation === null ? null : evaluationShape(e.evaluation) }
    default:
      return base
  }
}

/** Schema 4 (superred 0.3.0) has no declined_by. */
function inSchema(item: Record<string, unknown>, schema: 4 | 5) {
  if (schema === 5 || item.type !== 'ControllableNoInjection') return item
  const rest = { ...item }
  delete rest.declined_by
  return rest
}

const generic = (items: readonly TrajectoryItem[], run: number, schema: 4 | 5) =>
  pyDumps(
    { schema_version: schema, run_number: run, trajectory: items.map((i) => inSchema(shape(i), schema)) },
    { indent: 2, ensureAscii: false },
  )

const STRINGS = [
  '',
  'plain',
  'line\nbreak\ttab',
  'quote " and \\ backslash',
  'ünïcödé ✓ 日本',
  'ctl \u0000\u001f\u007f',
  '😀 astral',
  '<script>alert(1)</script>',
  '{"json": "inside"}',
]
const FLOATS = [0, 1, -0, 0.5, 1e-7, 1e-5, 123456.789, 1e16, 2.5e20, NaN, Infinity, -Infinity, 0.1 + 0.2]
const CONTENTS: unknown[] = [null, 42, 0.25, 1e-9, true, ['a', 1, { b: null }], { nested: { list: [], s: 'x\ny' } }, {}, 'text']

function items(seed: number, count: number): TrajectoryItem[] {
  const { pick } = seededDraws(seed)
  const f = stubForest()
  const tags = [null, f.system, f.systemPrompt, f.user, f.inbox, f.web]
  const cs = [
    controllable('prompt', f.systemPrompt, { description: pick(STRINGS) }),
    controllable('mail', f.inbox, { valueType: 'email' }),
    controllable('odd', null, { description: pick(STRINGS) }),
  ]
  const os = [observable('reply', f.user, { description: pick(STRINGS) }), observable('tool', f.web, { observableType: 'json' })]
  const anyScore = (primary: boolean) => score(pick(FLOATS), primary ? null : pick(tags), pick(['primary', 'leak', 'ü']))
  const out: TrajectoryItem[] = []
  const opts = () => ({ securityDomain: pick(tags), timestamp: pick(['2026-01-01T00:00:00.000001', 'x']) })
  while (out.length < count) {
    const c = pick(cs)
    const pre = preCallEvent(c, pick(STRINGS), opts())
    const post = postCallEvent(c, pick(STRINGS), pick(STRINGS))
    const evaluation = pick([
      null,
      evaluationResult({
        success: pick([true, false]),
        primaryScore: anyScore(true),
        rationale: pick(STRINGS),
        subScores: pick<Record<string, Score>>([
          {},
          { a: anyScore(false) },
          { '2': anyScore(false), z: anyScore(false), '10': anyScore(false) },
        ]),
      }),
    ])
    const start = runStartEvent({ snapshot: () => [], drain: () => [] } as never)
    out.push(
      pick<() => TrajectoryItem>([
        () => pre,
        () => post,
        () => observableEvent(pick(os), pick([...CONTENTS, pick(STRINGS)]), opts()),
        () => runEndEvent(evaluation, opts()),
        () => start,
        () => plainResponse(start),
        () => injection(pre, pick(STRINGS)),
        () => noInjection(post, pick(['scope', 'optimizer'] as const)),
        () => runEndResponse(pre, pick([true, false])),
      ])(),
    )
  }
  return out
}

describe('trajectoryText', () => {
  it('prints what the generic route prints, in schema 5 and 4', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const run = items(seed, seed % 7 === 0 ? 0 : 1 + (seed % 23))
      for (const schema of [5, 4] as const) {
        expect(trajectoryText(run, seed, schema), `seed ${seed}, schema ${schema}`).toBe(generic(run, seed, schema))
      }
    }
  })

  it('drops declined_by in schema 4 only', () => {
    const f = stubForest()
    const run = [noInjection(preCallEvent(controllable('c', f.user), 'r'), 'scope')]
    expect(JSON.parse(trajectoryText(run, 1, 5)).trajectory[0]).toEqual({
      kind: 'response',
      type: 'ControllableNoInjection',
      controllable: 'c',
      declined_by: 'scope',
    })
    expect(JSON.parse(trajectoryText(run, 1, 4)).trajectory[0]).toEqual({
      kind: 'response',
      type: 'ControllableNoInjection',
      controllable: 'c',
    })
    expect(JSON.parse(trajectoryText(run, 1, 4)).schema_version).toBe(4)
  })

  it('takes an item once for the files of a run that hold it, and prints the same from a clone of its job', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const run = items(seed, 12)
      const view = run.filter((_, i) => i % 3 === 0)
      for (const schema of [5, 4] as const) {
        const job = trajectoryJob(
          [
            { run: 3, items: run },
            { run: 3, items: view },
          ],
          schema,
        )
        expect(job.items.length / 7, `seed ${seed}`).toBe(new Set(run).size)
        // As it crosses to the writer thread: PyFloat contents and evaluations must already be printed.
        const texts = trajectoryTexts(structuredClone(job))
        expect(texts, `seed ${seed}, schema ${schema}`).toEqual([generic(run, 3, schema), generic(view, 3, schema)])
      }
    }
  })
})
