import { AGENTDOJO_FOREST, CHATBOT_FOREST } from '../core/tags'
import { fileText, ForestFileError, forestToJson, parseForestJson } from './forestJson'
import { decodePermalink, encodePermalink, permalinkPayload, PermalinkError } from './permalink'

const message = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('expected a failure')
}

describe('FOREST.json', () => {
  it('round-trips, one tag per line', () => {
    const text = forestToJson(CHATBOT_FOREST)
    expect(text.split('\n')[2]).toBe('    {"name":"system","parent":null,"description":"full control of the system side"},')
    expect(parseForestJson(text)).toEqual(CHATBOT_FOREST)
  })

  it('names the line and column of a syntax error', () => {
    const m = message(() => parseForestJson('{\n  "tags": [\n    {"name": "a",}\n  ]\n}'))
    expect(m).toMatch(/^not valid JSON at line 3, column \d+: /)
  })

  it('names the field of a wrong value, and the tag superred would refuse', () => {
    expect(message(() => parseForestJson('{"tags": [{"name": "a"}, {"name": 3}]}'))).toMatch(/^not a forest file: tags\[1\]\.name: /)
    expect(message(() => parseForestJson('{"tags": [{"name": "a"}, {"name": "a"}]}'))).toBe("tags[1]: Duplicate tag name: 'a'")
    expect(message(() => parseForestJson('{"tags": [{"name": "a", "parent": "zz"}]}'))).toBe(
      "tags[0]: Tag 'a' has parent 'zz' which is not in the domain",
    )
    expect(() => parseForestJson('[]')).toThrow(ForestFileError)
  })
})

describe('permalink', () => {
  it('round-trips a forest and scope through a URL fragment', () => {
    const model = { name: 'Inbox attacker', forest: AGENTDOJO_FOREST, scope: ['workspace_inbox'], readOnly: ['system_prompt'] }
    const hash = `#${encodePermalink(model)}`
    expect(hash).toMatch(/^#share=[A-Za-z0-9_-]+$/)
    expect(hash.length).toBeLessThan(1200)
    expect(decodePermalink(permalinkPayload(hash)!)).toEqual({ v: 1, ...model })
    expect(permalinkPayload('#other=1')).toBeNull()
  })

  it('refuses a damaged or hostile link with a message', () => {
    const good = encodePermalink({ forest: CHATBOT_FOREST, scope: [], readOnly: [] }).slice('share='.length)
    expect(() => decodePermalink(good.slice(0, 20))).toThrow(PermalinkError)
    expect(message(() => decodePermalink(good.slice(0, 20)))).toMatch(/damaged/)
    const bad = encodePermalink({ forest: { tags: [{ name: 'a', parent: 'b', description: '' }] }, scope: [], readOnly: [] })
    expect(message(() => decodePermalink(bad.slice(6)))).toBe(
      "This link's forest is not valid: Tag 'a' has parent 'b' which is not in the domain",
    )
  })
})

describe('a FOREST.json file as bytes', () => {
  it('is decoded strictly: a byte that is not UTF-8 is refused by offset, never read as U+FFFD', async () => {
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('{"tags": [{"name": "caf'),
      0xe9,
      ...new TextEncoder().encode('", "parent": null}]}'),
    ])
    await expect(fileText(new Blob([latin1]))).rejects.toThrow(
      new ForestFileError('not UTF-8 text: the byte 0xe9 at offset 23 begins no valid UTF-8 character'),
    )
    const good = new TextEncoder().encode('{"tags": [{"name": "café", "parent": null}]}')
    expect(parseForestJson(await fileText(new Blob([good]))).tags[0].name).toBe('café')
  })
})
