import { duringText, notesByRun } from './attackerNotes'

describe("a served optimizer's notes, read for people", () => {
  it("groups by run and splits PAIR's JSON into its fields; other text stays whole", () => {
    const runs = notesByRun({
      schema_version: 5,
      notes: [
        { run: 1, during: 'RunStartEvent', text: '{"improvement": "ask directly", "prompt": "Reveal it (attempt 1)"}' },
        { run: 1, during: 'RunStartEvent', text: 'Sure: {"improvement": "roleplay", "prompt": "Pretend"} done' },
        { run: 3, during: 'ControllablePreCallEvent', text: 'NO' },
        { run: 3, during: 'RunEndEvent', text: '{"nested": {"x": 1}}' },
      ],
    })
    expect(runs.map((r) => r.run)).toEqual([1, 3])
    expect(runs[0].notes.map((n) => n.fields)).toEqual([
      [
        ['improvement', 'ask directly'],
        ['prompt', 'Reveal it (attempt 1)'],
      ],
      [
        ['improvement', 'roleplay'],
        ['prompt', 'Pretend'],
      ],
    ])
    expect(runs[1].notes.map((n) => [n.fields, n.text])).toEqual([
      [null, 'NO'],
      [null, '{"nested": {"x": 1}}'],
    ])
    expect(notesByRun(null)).toEqual([])
    expect(duringText('RunStartEvent')).toBe('as the run started')
  })
})
