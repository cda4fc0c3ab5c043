import { buildDomain } from '../tags'
import { forestCoverage } from './coverage'
import { buildReplay } from './replay'
import { end, inj, noInj, obs, post, pre } from './testItems'
import { declinedByWords, itemIndexOfStep, plainKind, stepKind, stepNumber, stepWords, type Access, type StepKind } from './wording'

const KINDS: ReadonlyArray<[StepKind, string]> = [
  ['pre-call', 'ControllablePreCallEvent'],
  ['post-call', 'ControllablePostCallEvent'],
  ['observation', 'ObservableEvent'],
  ['injection', 'ControllableInjection'],
  ['no-injection', 'ControllableNoInjection'],
  ['run-end', 'RunEndEvent'],
  ['run-end-response', 'RunEndResponse'],
  ['other', 'SomethingNew'],
]
const ACCESS: readonly Access[] = ['scope', 'read-only', 'none']
const CLASS_NAME = /Controllable|Observable|RunEnd|declined_by/

describe('the words for a step: only what is true of its kind', () => {
  for (const [kind, type] of KINDS) {
    it(`${type} is a ${kind}`, () => expect(stepKind({ type })).toBe(kind))
    for (const visible of [true, false]) {
      for (const access of ACCESS) {
        it(`${kind}, ${visible ? 'visible' : 'hidden'}, ${access}`, () => {
          const w = stepWords({ kind, visible, access, writeBy: 'user', declinedBy: 'scope' })
          const injectionPoint = kind === 'pre-call' || kind === 'post-call'
          // "Writable ... the optimizer was asked what to inject" only where an injection can happen and the scope covers it.
          const asked = /optimizer was asked what to inject/.test(w.writeLine)
          expect(asked).toBe(injectionPoint && access === 'scope')
          expect(w.writable).toBe(injectionPoint && access === 'scope')
          const answered = kind === 'injection' ? 'Injected' : kind === 'no-injection' ? 'Not injected' : 'Not an injection point'
          expect(w.writeVerdict).toBe(!injectionPoint ? answered : access === 'scope' ? 'Writable' : 'Not writable')
          if (injectionPoint && access === 'scope') expect(w.writeLine).toContain('"user"')
          if (injectionPoint && access !== 'scope') expect(w.writeLine).toMatch(/^Not writable: .*declined any injection by itself/)
          if (!injectionPoint) expect(w.writeLine).not.toMatch(/\bWritable\b|could write/)
          expect(w.presenterLine.startsWith(visible ? 'The attacker saw this.' : 'The attacker could not see this.')).toBe(true)
          expect(w.seenVerdict).toBe(visible ? 'Seen by the attacker' : 'Hidden from the attacker')
          expect(/It could write here/.test(w.presenterLine)).toBe(injectionPoint && access === 'scope')
          // Plain words: no event class name, no file field name.
          for (const text of [w.writeLine, w.presenterLine, w.writeVerdict, w.seenVerdict]) expect(text).not.toMatch(CLASS_NAME)
        })
      }
    }
  }

  it('says who declined, in plain words', () => {
    const by = (declinedBy: string | null) => stepWords({ kind: 'no-injection', visible: true, access: 'scope', declinedBy }).writeLine
    expect(by('optimizer')).toContain('the optimizer was asked and chose not to inject')
    expect(by('scope')).toContain('the framework declined by itself')
    expect(by(null)).toContain('does not record who declined')
    expect(declinedByWords('scope')).toBe('declined by the framework: the surface is outside the scope')
    expect(declinedByWords('optimizer')).toBe('declined by the optimizer')
  })

  it('plain kinds for people; an unknown kind keeps its own name', () => {
    expect(plainKind({ type: 'ControllablePreCallEvent' })).toBe('call before the target uses a controllable')
    expect(plainKind({ type: 'ControllableNoInjection' })).toBe('no injection')
    expect(plainKind({ type: 'RunEndEvent' })).toBe('end of the run')
    expect(plainKind({ type: 'SomethingNew' })).toBe('SomethingNew')
  })

  it('one numbering: step N is item N-1, both ways; an attacker-only row has no step', () => {
    expect(stepNumber(0)).toBe(1)
    expect(stepNumber(41)).toBe(42)
    expect(stepNumber(-1)).toBeNull()
    expect(itemIndexOfStep(stepNumber(7)!)).toBe(7)
  })
})

describe('explanations of a replay use the same words', () => {
  // user is granted read & write, system read only; the observation and the run end sit on user, and are never "writable".
  const forest = {
    tags: [
      { name: 'system', parent: null, description: '' },
      { name: 'system_prompt', parent: 'system', description: '' },
      { name: 'user', parent: null, description: '' },
    ],
  }
  const items = [
    pre('user_message', 'user'),
    inj('user_message'),
    obs('reply', 'user'),
    post('system_prompt', 'system_prompt'),
    noInj('system_prompt', 'scope'),
    end('user'),
  ]
  const replay = buildReplay(items, null, forestCoverage(buildDomain(forest), { scope: ['user'], readOnly: ['system'] }))

  it('the pre-call on a scope tag is writable; the observation on the same tag is not an injection point', () => {
    expect(replay.explain(0).writable).toBe(true)
    expect(replay.explain(0).lines.join(' ')).toContain('so the optimizer was asked what to inject')
    expect(replay.explain(2).writable).toBe(false)
    expect(replay.explain(2).words.writeVerdict).toBe('Not an injection point')
    expect(replay.explain(2).lines.join(' ')).not.toContain('asked what to inject')
  })

  it('the injection itself is labelled as one (it read "Not an injection point"), and a declined one says so', () => {
    expect(replay.explain(1).words.writeVerdict).toBe('Injected')
    expect(replay.explain(4).words.writeVerdict).toBe('Not injected')
  })

  it("a read-only call is not writable, its decline is the framework's, and a run end is never writable", () => {
    expect(replay.explain(3).words.writeVerdict).toBe('Not writable')
    expect(replay.explain(4).lines.join(' ')).toContain('the framework declined by itself')
    expect(replay.explain(5).writable).toBe(false)
    expect(replay.explain(5).lines.join(' ')).not.toMatch(/Writable|asked what to inject/)
    for (let r = 0; r < replay.rows; r++) expect(replay.explain(r).lines.join(' ')).not.toMatch(CLASS_NAME)
  })
})
