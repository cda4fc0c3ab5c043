import { forestFindings, forestIsValid } from './forestFindings'
import { docOf, id } from './testDoc'

const codes = (pairs: Array<[string, string | null]>) =>
  forestFindings(docOf(pairs).tags)
    .filter((f) => f.code !== 'missing_description')
    .map((f) => f.code)

describe('forestFindings', () => {
  it('finds nothing wrong with the guide chatbot forest (apart from missing descriptions)', () => {
    expect(
      codes([
        ['system', null],
        ['system_prompt', 'system'],
        ['model', 'system'],
        ['model_identity', 'system'],
        ['user', null],
      ]),
    ).toEqual([])
  })

  it('reports a duplicate name beside both tags, as superred would refuse it', () => {
    const doc = docOf([
      ['a', null],
      ['b', null],
    ])
    const dup = { ...doc, tags: [doc.tags[0], { ...doc.tags[1], name: 'a' }] }
    const found = forestFindings(dup.tags).filter((f) => f.code === 'duplicate_name')
    expect(found.map((f) => f.tags)).toEqual([[id('a')], [id('b')]])
    expect(found[0].message).toContain("Duplicate tag name: 'a'")
    expect(forestIsValid(found)).toBe(false)
  })

  it('reports an empty name and a missing parent as errors', () => {
    const doc = docOf([['a', null]])
    const tags = [
      { ...doc.tags[0], name: '  ' },
      { id: id('c'), name: 'c', parent: id('ghost'), description: 'x' },
    ]
    expect(forestFindings(tags).map((f) => f.code)).toEqual(['empty_name', 'parent_missing'])
  })

  it('advises against persona names (principle 1)', () => {
    const [f] = forestFindings(docOf([['malicious_user', null]]).tags)
    expect(f).toMatchObject({ code: 'persona_name', severity: 'warning', principle: 1 })
    expect(
      codes([
        ['attacker', null],
        ['threat_actor', null],
        ['user', null],
      ]),
    ).toEqual(['persona_name', 'persona_name'])
  })

  it('advises against read-access tags (principle 3)', () => {
    expect(
      codes([
        ['system_prompt', null],
        ['system_prompt_readable', 'system_prompt'],
        ['thread', null],
      ]),
    ).toEqual(['readable_tag'])
  })

  it('notes a user channel nested under the system side (principle 5)', () => {
    expect(
      codes([
        ['system', null],
        ['user_message', 'system'],
      ]),
    ).toEqual(['channel_nested'])
  })

  it('asks for a description, which the attacker reading needs', () => {
    const doc = docOf([['a', null]])
    expect(forestFindings(doc.tags)[0]).toMatchObject({ code: 'missing_description', severity: 'info' })
    expect(forestFindings([{ ...doc.tags[0], description: 'do a' }])).toEqual([])
  })
})
