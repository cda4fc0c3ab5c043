import { readFileSync } from 'node:fs'
import { kwargFields, kwargsOf, kwargValue } from './kwargsForm'

// The bridge's own schemas of superred's optimizer packages: the form must read them as they are published.
const known = JSON.parse(readFileSync('python/src/redscope_bridge/optimizer_kwargs.schema.json', 'utf8')) as Record<string, unknown>
const pair = known['pair_optimizer:PAIROptimizer']

describe('the kwargs form of a served optimizer', () => {
  it("reads PAIR's schema: numbers with their limits, a choice, nullable text and lists, defaults as placeholders", () => {
    const fields = kwargFields(pair)
    const by = Object.fromEntries(fields.map((f) => [f.name, f]))
    expect(fields.map((f) => f.name).slice(0, 3)).toEqual(['n_streams', 'n_iterations', 'keep_last_n'])
    expect(by.n_streams).toMatchObject({ kind: 'integer', minimum: 1, placeholder: '3', required: false, nullable: false })
    expect(by.attack_top_p).toMatchObject({ kind: 'number', minimum: 0, maximum: 1, placeholder: '0.9' })
    expect(by.judge_method).toMatchObject({ kind: 'enum', options: ['gcg', 'gpt', 'no-judge'], placeholder: 'gcg' })
    expect(by.target_str).toMatchObject({ kind: 'string', nullable: true, placeholder: 'null' })
    expect(by.response_observable_names).toMatchObject({ kind: 'lines', nullable: true })
    expect(by.n_streams.description).toMatch(/parallel refinement streams/)
  })

  it('turns drafts into kwargs: empty fields left out (the server default holds), each bad one named', () => {
    const fields = kwargFields(pair)
    expect(
      kwargsOf(fields, { n_streams: '2', judge_method: 'no-judge', response_observable_names: 'reply\n\nanswer ', target_str: '' }),
    ).toEqual({ kwargs: { n_streams: 2, judge_method: 'no-judge', response_observable_names: ['reply', 'answer'] }, issues: {} })
    const bad = kwargsOf(fields, { n_streams: '0', n_iterations: '1.5', attack_top_p: '2', judge_method: 'llm' })
    expect(bad.issues).toEqual({
      n_streams: 'must be at least 1',
      n_iterations: 'must be a whole number',
      attack_top_p: 'must be at most 1',
      judge_method: 'must be one of gcg, gpt, no-judge',
    })
  })

  it('a signature-derived schema: required fields, booleans, JSON for what has no simpler form', () => {
    const fields = kwargFields({
      type: 'object',
      required: ['prompts'],
      properties: {
        prompts: { type: 'array', items: { type: 'string' } },
        verbose: { type: 'boolean', default: false },
        extra: { type: 'object' },
        seed: { type: ['integer', 'null'] },
      },
    })
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['prompts', 'lines', true],
      ['verbose', 'boolean', false],
      ['extra', 'json', false],
      ['seed', 'integer', false],
    ])
    expect(kwargsOf(fields, {}).issues).toEqual({ prompts: 'required' })
    expect(kwargValue(fields[1], 'true')).toEqual({ value: true })
    expect(kwargValue(fields[2], '{"a": 1}')).toEqual({ value: { a: 1 } })
    expect(kwargValue(fields[2], '{a}')).toEqual({ issue: 'must be JSON' })
    expect(kwargValue(fields[3], 'null')).toEqual({ value: null })
    expect(kwargFields('not a schema')).toEqual([])
  })
})
