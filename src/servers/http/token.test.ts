// @vitest-environment node
import { WrongTokenLimiter } from './token'

describe('WrongTokenLimiter', () => {
  it('lets an address try ten wrong tokens at once, then one a second; other addresses are not touched', () => {
    let now = 0
    const limiter = new WrongTokenLimiter(10, 1, () => now)
    for (let i = 0; i < 10; i++) {
      expect(limiter.waitSeconds('10.0.0.1')).toBe(0)
      limiter.failed('10.0.0.1')
    }
    expect(limiter.waitSeconds('10.0.0.1')).toBe(1)
    expect(limiter.waitSeconds('10.0.0.2')).toBe(0)
    now += 400
    expect(limiter.waitSeconds('10.0.0.1')).toBe(1)
    now += 600
    expect(limiter.waitSeconds('10.0.0.1')).toBe(0)
    limiter.failed('10.0.0.1')
    expect(limiter.waitSeconds('10.0.0.1')).toBe(1)
    // 400 guesses take six and a half minutes, not a tenth of a second.
    let tries = 11
    while (tries < 400) {
      now += limiter.waitSeconds('10.0.0.1') * 1000
      limiter.failed('10.0.0.1')
      tries++
    }
    expect(now).toBeGreaterThanOrEqual(390_000)
  })

  it('forgets addresses whose tries have all come back, so many addresses do not grow it without end', () => {
    let now = 0
    const limiter = new WrongTokenLimiter(10, 1, () => now)
    for (let i = 0; i < 2000; i++) limiter.failed(`a${i}`)
    now += 60_000
    limiter.failed('last')
    expect((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size).toBe(1)
  })
})
