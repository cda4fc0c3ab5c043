import { targetFactory, type Target } from '../../../core/engine'
import { DEFAULT_THINK_MS } from '../../../reference-targets/thinkTime'
import { LIVE_PACE_KEY, livePaceMs, pacedFactory } from './livePace'

afterEach(() => localStorage.removeItem(LIVE_PACE_KEY))

describe("the live view's pace for a watched demo run", () => {
  it('is the demo pace unless this browser says otherwise; nonsense falls back to it', () => {
    expect(livePaceMs()).toBe(DEFAULT_THINK_MS)
    localStorage.setItem(LIVE_PACE_KEY, '0')
    expect(livePaceMs()).toBe(0)
    localStorage.setItem(LIVE_PACE_KEY, '250')
    expect(livePaceMs()).toBe(250)
    for (const bad of ['slow', '-1', '1.5', '999999']) {
      localStorage.setItem(LIVE_PACE_KEY, bad)
      expect(livePaceMs()).toBe(DEFAULT_THINK_MS)
    }
  })

  it('wraps each target a factory makes (its concurrency kept); at 0 the factory is returned as it is', async () => {
    const stub = { run: () => Promise.resolve(), teardown: () => Promise.resolve() } as unknown as Target
    const factory = targetFactory(() => stub, 3)
    expect(pacedFactory(factory, 0)).toBe(factory)
    const paced = pacedFactory(factory, 100)
    expect(paced.concurrency).toBe(3)
    const made = await paced.create()
    expect(made).not.toBe(stub)
    expect(made.run).not.toBe(stub.run)
  })
})
