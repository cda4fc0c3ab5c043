import { deeplyNestedJson, HOSTILE_STRINGS } from '../../testing/hostileContent'
import {
  childPath,
  countNodes,
  entriesOf,
  foldedSummary,
  initiallyOpenPaths,
  jsonCopyText,
  jsonInString,
  jsonTreeOf,
  OPEN_NODE_BUDGET,
} from './jsonTree'

/** A tool call's request as AgentDojo's runtime writes it (json.dumps of function and args). */
const TOOL_CALL = JSON.stringify({
  function: 'send_money',
  args: { recipient: 'US133000000121212121212', amount: 100, subject: 'rent', date: '2022-01-01' },
})

/** An environment snapshot: one store with hundreds of transactions. */
function snapshot(n: number) {
  return {
    bank_account: {
      balance: 1810,
      iban: 'DE89370400440532013000',
      transactions: Array.from({ length: n }, (_, i) => ({ id: i, amount: i * 3, subject: `payment ${i}`, recurring: false })),
    },
    user_account: { first_name: 'Emma', last_name: 'Johnson' },
  }
}

describe('JSON in payloads', () => {
  it('reads objects and arrays, and strings that hold one, as trees', () => {
    expect(jsonTreeOf({ a: 1 })).toEqual({ root: { a: 1 }, fromString: false })
    expect(jsonTreeOf([1, 2])).toEqual({ root: [1, 2], fromString: false })
    const call = jsonTreeOf(TOOL_CALL)
    expect(call?.fromString).toBe(true)
    expect(call?.root).toMatchObject({ function: 'send_money', args: { amount: 100 } })
    expect(jsonTreeOf('  \n[{"role": "user"}]\n ')?.root).toEqual([{ role: 'user' }])
  })

  it('leaves scalars, prose and broken JSON as text', () => {
    for (const text of ['42', 'true', '"quoted"', 'null', 'hello {"a": 1}', '{"a": 1', '{not json}', '[1, 2,]', '{}x', '', '{']) {
      expect(jsonTreeOf(text)).toBeNull()
    }
    expect(jsonTreeOf(42)).toBeNull()
    expect(jsonTreeOf(null)).toBeNull()
    expect(jsonTreeOf(undefined)).toBeNull()
    // Hostile markup is never JSON here: it stays a string, shown as text.
    for (const s of HOSTILE_STRINGS) if (!/^\s*[[{]/.test(s)) expect(jsonTreeOf(s)).toBeNull()
  })

  it('refuses a string nested 100,000 deep (stays text) instead of overflowing', () => {
    expect(jsonInString(deeplyNestedJson(100_000))).toBeUndefined()
    expect(jsonInString(deeplyNestedJson(50))).toBeDefined()
  })

  it('keeps hostile markup inside JSON as string data, byte for byte', () => {
    const img = '<img src=x onerror="window.__pwned=1">'
    const tree = jsonTreeOf(JSON.stringify({ html: img, list: [img] }))
    expect(tree?.root).toEqual({ html: img, list: [img] })
    expect(jsonCopyText(tree?.root)).toContain('"html": "<img src=x onerror=\\"window.__pwned=1\\">"')
  })
})

describe('folding', () => {
  const path = (...keys: string[]) => keys.reduce(childPath, '')

  it('opens a tool call and its arguments at once', () => {
    const call = jsonTreeOf(TOOL_CALL)!.root
    expect([...initiallyOpenPaths(call)]).toEqual(['', 'args'])
  })

  it('opens a chat message down to its tool call; the arguments string, one level further, starts folded', () => {
    const message = {
      role: 'assistant',
      content: [{ type: 'text', text: 'Let me look.' }],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'banking__get_balance', arguments: '{"n": 100}' } }],
    }
    const open = initiallyOpenPaths(message)
    for (const p of [
      path('content'),
      path('content', '0'),
      path('tool_calls'),
      path('tool_calls', '0'),
      path('tool_calls', '0', 'function'),
    ]) {
      expect(open.has(p)).toBe(true)
    }
    expect(open.has(path('tool_calls', '0', 'function', 'arguments'))).toBe(false)
  })

  it('starts a big snapshot folded past its root, the small stores beside it open, with sizes in the summaries', () => {
    const snap = snapshot(500)
    const open = initiallyOpenPaths(snap)
    expect(open.has('')).toBe(true)
    expect(open.has(path('bank_account'))).toBe(false)
    expect(open.has(path('user_account'))).toBe(true)
    expect(foldedSummary(snap.bank_account.transactions)).toBe('[ 500 items ]')
    expect(foldedSummary(snap.user_account)).toBe('{ 2 keys }')
    expect(foldedSummary([1])).toBe('[ 1 item ]')
  })

  it('opens a level of siblings whole or not at all: thirty small transactions start as thirty folded rows', () => {
    const txs = snapshot(30).bank_account.transactions
    expect([...initiallyOpenPaths(txs)]).toEqual([''])
    expect([...initiallyOpenPaths(txs.slice(0, 3))]).toEqual(['', '0', '1', '2'])
    // A store unfolded by the reader chooses for its own subtree the same way.
    expect([...initiallyOpenPaths(snapshot(500).bank_account)]).toEqual([''])
  })

  it('chooses by looking at a page of a value of 100,000 entries, not at all of them', () => {
    let reads = 0
    const wide = new Proxy(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, { a: i, b: [i] }])), {
      get(target, key, receiver) {
        reads++
        return Reflect.get(target, key, receiver)
      },
    })
    expect(initiallyOpenPaths(wide).size).toBe(1)
    expect(reads).toBeGreaterThan(0)
    expect(reads).toBeLessThan(1_000)
  })

  it('counts descendants only up to its limit, strings holding JSON included', () => {
    expect(countNodes(snapshot(100_000), OPEN_NODE_BUDGET)).toBe(OPEN_NODE_BUDGET + 1)
    expect(countNodes({ a: 1, b: [1, 2] }, 100)).toBe(4)
    expect(countNodes({ args: TOOL_CALL }, 100)).toBe(1 + 2 + 4)
    expect(countNodes({}, 10)).toBe(0)
  })

  it('pages entries of big nodes', () => {
    const arr = Array.from({ length: 250 }, (_, i) => i)
    expect(entriesOf(arr, 0, 100)).toHaveLength(100)
    expect(entriesOf(arr, 200, 100).map(([k]) => k)).toEqual(Array.from({ length: 50 }, (_, i) => String(200 + i)))
    const obj = Object.fromEntries(arr.map((i) => [`k${i}`, i]))
    expect(entriesOf(obj, 100, 2)).toEqual([
      ['k100', 100],
      ['k101', 101],
    ])
  })

  it('copies a node as pretty JSON, and says so for a value that cannot be', () => {
    expect(jsonCopyText({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}')
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(jsonCopyText(cycle)).toMatch(/^\[this value cannot be copied as JSON/)
  })
})
