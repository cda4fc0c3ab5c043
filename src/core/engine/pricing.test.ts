import { DEFAULT_PRICE_TABLE } from './budget'
import { billingPrice, billingTable, isOpenAiEndpoint, unpricedCapMessage } from './pricing'

const MINI = DEFAULT_PRICE_TABLE['gpt-4o-mini']

describe('which price a model is billed at', () => {
  it("OpenAI's own endpoint (or the SDK's default) only takes the table's prices", () => {
    expect([null, undefined, '', 'https://api.openai.com/v1', 'https://API.openai.com/v1/'].map(isOpenAiEndpoint)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
    expect(
      ['http://127.0.0.1:8080/v1', 'http://localhost:11434/v1', 'https://api.openai.com.evil.example/v1', 'not a url'].map(
        isOpenAiEndpoint,
      ),
    ).toEqual([false, false, false, false])
  })

  it('a local model named like an OpenAI one is unpriced; a configured price wins anywhere', () => {
    expect(billingPrice('gpt-4o-mini', 'https://api.openai.com/v1', DEFAULT_PRICE_TABLE)).toEqual(MINI)
    expect(billingPrice('gpt-4o-mini', 'http://127.0.0.1:8080/v1', DEFAULT_PRICE_TABLE)).toBeNull()
    expect(billingPrice('smollm2', null, DEFAULT_PRICE_TABLE)).toBeNull()
    const mine = { inputPerMillion: 0.01, outputPerMillion: 0.02 }
    expect(billingPrice('gpt-4o-mini', 'http://127.0.0.1:8080/v1', DEFAULT_PRICE_TABLE, mine)).toBe(mine)
    expect(billingTable('m', mine)).toEqual({ m: mine })
    expect(billingTable('m', null)).toEqual({})
  })

  it('says why a cap cannot be enforced', () => {
    expect(unpricedCapMessage('smollm2', 'http://127.0.0.1:8080/v1')).toBe(
      'the model "smollm2" is unpriced (its endpoint (127.0.0.1:8080) ' +
        "is not OpenAI's, so OpenAI's prices do not apply), so a cost cap cannot be enforced: give its price per 1M tokens",
    )
    expect(unpricedCapMessage('o9', null)).toContain('OpenAI has no price for it in the price table')
  })
})
