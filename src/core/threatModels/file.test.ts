import { parseThreatModelsFile, threatModelsFileText } from '.'

describe('threat-models.json', () => {
  it('keeps names, grants and notes through a round trip', () => {
    const models = [
      { name: 'Phishing mail', scope: ['inbox'], readOnly: [], notes: 'the classic' },
      { name: 'Shared drive + calendar reader', scope: ['drive'], readOnly: ['calendar'], notes: '' },
    ]
    const text = threatModelsFileText(models)
    expect(JSON.parse(text)).toEqual({
      v: 1,
      threat_models: [
        { name: 'Phishing mail', scope: ['inbox'], read_only: [], notes: 'the classic' },
        { name: 'Shared drive + calendar reader', scope: ['drive'], read_only: ['calendar'], notes: '' },
      ],
    })
    expect(parseThreatModelsFile(text)).toEqual(models)
  })

  it('names the place of the first problem', () => {
    expect(() => parseThreatModelsFile('{"v": 1, "threat_models": [{"name": "a", "scope": ["x"]}, {"name": " ", "scope": []}]}')).toThrow(
      /^threat_models\[1\]\.name: .* \(expected \{"v": 1, "threat_models"/,
    )
    expect(() => parseThreatModelsFile('{"v": 2, "threat_models": []}')).toThrow(/^v: /)
    expect(() => parseThreatModelsFile('[')).toThrow(/^not JSON/)
  })
})
