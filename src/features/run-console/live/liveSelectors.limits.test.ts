import { costText, turnText } from './liveSelectors'

describe('what a lane says beside its numbers', () => {
  it('the turn of the run under way, against the attacker limit when it has one', () => {
    expect(turnText(3, 10)).toBe('turn 3 / 10')
    expect(turnText(11, 10)).toBe('turn limit (10) reached: the attacker declines')
    expect(turnText(4, null)).toBe('turn 4')
  })

  it('an unpriced model costs "unpriced", never $0', () => {
    expect(costText(0, { maxTurns: null, unpricedModel: 'smollm2' })).toBe('unpriced')
    expect(costText(0.00021, { maxTurns: null, unpricedModel: null })).toMatch(/^\$0\.000/)
  })
})
