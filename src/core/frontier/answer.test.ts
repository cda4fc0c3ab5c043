import { answerWords } from './answer'
import { FrontierFileSchema, type FrontierFile } from './file'

const model = (scope: string[], index: string, runs: string[]) => ({
  scope,
  read_only: [],
  index,
  words: `an attacker who writes ${scope.join(' and ')}`,
  runs,
})
const tally = (wins: number, runs: number) => ({ wins, runs, rate_low: 0, rate_high: 1 })

function file(over: Partial<FrontierFile> = {}): FrontierFile {
  return FrontierFileSchema.parse({
    threat_models_total: 15,
    evaluated: 3,
    claim: {
      minimal_wins: [model(['inbox'], '2', ['w-1'])],
      maximal_losses: [model(['calendar', 'files'], '9', ['l-1', 'l-2'])],
      decided_by_inference: 12,
      undecided: 0,
    },
    tasks: [],
    contradictions: [],
    v: 1,
    complete: true,
    search: {
      target: 't',
      claim: 'c',
      attacker: 'template-naive',
      claim_digest: '',
      attacker_digest: '',
      seed: 'low',
      repeat: 2,
      per_task: false,
      budget_runs: null,
    },
    assumption: 'monotone',
    bound: { height: 4, evaluations_at_most: 10 },
    evaluations: [
      { scope: ['inbox'], index: '2', runs: ['w-1'], outcomes: [[true], [false]], claim: tally(1, 2) },
      { scope: ['calendar', 'files'], index: '9', runs: ['l-1', 'l-2'], outcomes: [[false], [false]], claim: tally(0, 2) },
    ],
    ...over,
  })
}

describe('answerWords', () => {
  it('says the minimal wins and the maximal losses with the runs that decided each, a loss as not broken in those runs', () => {
    const a = answerWords(file())
    expect(a.minimalWins.map((p) => [p.index, p.verdict, p.dirs])).toEqual([['2', 'wins', ['w-1']]])
    expect(a.minimalWins[0].runs).toBe('50% (1 of 2 runs, 95% CI 9–91%)')
    expect(a.maximalLosses.map((p) => [p.index, p.verdict, p.dirs])).toEqual([['9', 'loses', ['l-1', 'l-2']]])
    expect(a.maximalLosses[0].runs).toBe('not broken in 2 runs by template-naive (≤ 66% at 95%)')
    expect(a.progress).toBe('Evaluated 3 of 15 threat models; 12 decided by inference.')
    expect(a.none).toBe('')
    expect(a.maximalLosses[0].runs).not.toMatch(/safe/i)
  })

  it('says a stopped search is partial, and no win only for the runs made', () => {
    const a = answerWords(file({ complete: false, claim: { minimal_wins: [], maximal_losses: [], decided_by_inference: 4, undecided: 8 } }))
    expect(a.progress).toBe(
      'Evaluated 3 of 15 threat models; 4 decided by inference; stopped before the answer was complete (8 undecided): what follows is partial.',
    )
    expect(a.none).toBe('No threat model has broken the claim so far.')
    const done = answerWords(file({ claim: { minimal_wins: [], maximal_losses: [], decided_by_inference: 12, undecided: 0 } }))
    expect(done.none).toBe('No threat model broke the claim in the runs made (2 runs per evaluation): even the widest attacker lost.')
  })

  it('with a sequential test, says each point by its own tally and interval', () => {
    const tested = {
      ...model(['inbox'], '2', ['w-1']),
      tally: { ...tally(12, 13), interval: [0.612, 0.999] as [number, number], decision: 'win' as const },
    }
    const a = answerWords(file({ claim: { minimal_wins: [tested], maximal_losses: [], decided_by_inference: 0, undecided: 0 } }))
    expect(a.minimalWins[0].runs).toBe('12 of 13 runs won, rate in [0.61, 1.00]')
  })
})
