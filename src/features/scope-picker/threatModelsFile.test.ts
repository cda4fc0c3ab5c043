import { docFromForest, tagIdOf } from '../../core/model'
import { ASSISTANT_FOREST } from '../../reference-targets'
import { exportThreatModels, importThreatModels } from './threatModelsFile'

let n = 0
const doc = docFromForest(ASSISTANT_FOREST, () => tagIdOf(`t${++n}`))
const id = (name: string) => doc.tags.find((t) => t.name === name)!.id

describe('saved threat models as threat-models.json', () => {
  it('exports names for tag ids and imports them back as the same ids, names and notes kept', () => {
    const saved = [
      { id: 'm1', name: 'Phishing', scope: [id('inbox')], readOnly: [], notes: 'mail only', savedAt: 1 },
      { id: 'm2', name: 'Drive, reads calendar', scope: [id('drive')], readOnly: [id('calendar')], notes: '', savedAt: 2 },
    ]
    const text = exportThreatModels(doc, saved)
    expect(JSON.parse(text).threat_models[1]).toEqual({
      name: 'Drive, reads calendar',
      scope: ['drive'],
      read_only: ['calendar'],
      notes: '',
    })
    expect(importThreatModels(doc, text, 'threat-models.json')).toEqual(
      saved.map(({ name, scope, readOnly, notes }) => ({ name, scope, readOnly, notes })),
    )
  })

  it('refuses a tag the open forest lacks, naming the file and the threat model', () => {
    const text = JSON.stringify({ v: 1, threat_models: [{ name: 'Vault', scope: ['vault'] }] })
    expect(() => importThreatModels(doc, text, 'tm.json')).toThrow('tm.json: threat model "Vault": "vault" is not a tag of this forest')
  })
})
