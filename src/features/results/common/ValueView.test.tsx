import { fireEvent, render, screen, within } from '@testing-library/react'
import { HOSTILE_STRINGS } from '../../../testing/hostileContent'
import { ValueView } from './ValueView'

const IMG = '<img src=x onerror="window.__pwned=1">'
const TOOL_CALL = JSON.stringify({ function: 'send_money', args: { recipient: 'US133000000121212121212', amount: 100, subject: IMG } })

function snapshot(n: number) {
  return {
    bank_account: { balance: 1810, transactions: Array.from({ length: n }, (_, i) => ({ id: i, subject: `payment ${i}` })) },
    user_account: { first_name: 'Emma' },
  }
}

/** A node's fold button by its key (role queries crawl the whole jsdom tree: too slow for hundreds of nodes). */
function toggle(name: string): HTMLElement {
  const found = [...document.querySelectorAll<HTMLElement>('.json__toggle')].filter(
    (b) => b.querySelector('.json__key, .json__index')?.textContent === name,
  )
  if (found.length !== 1) throw new Error(`${found.length} fold buttons named ${name}`)
  return found[0]
}

describe('ValueView with JSON', () => {
  afterEach(() => {
    delete (window as unknown as { __pwned?: unknown }).__pwned
  })

  it('shows a tool call held in a string as an unfolded tree, its markup as text', () => {
    const { container } = render(<ValueView label="request" value={TOOL_CALL} fileStem="t" />)
    const tree = screen.getByTestId('json-tree')
    expect(within(tree).getByText('send_money')).toBeInTheDocument()
    expect(toggle('args')).toHaveAttribute('aria-expanded', 'true')
    expect(within(tree).getByText(IMG)).toBeInTheDocument()
    expect(container.querySelector('img, script, iframe, svg')).toBeNull()
    expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined()
    // The raw text is one click away, and back.
    fireEvent.click(screen.getByRole('button', { name: 'Show as text' }))
    expect(screen.getByTestId('value-text')).toHaveTextContent('"function":"send_money"')
    fireEvent.click(screen.getByRole('button', { name: 'Show as tree' }))
    expect(screen.getByTestId('json-tree')).toBeInTheDocument()
  })

  it('starts a big snapshot folded past its root, unfolds on click, and pages a long array', () => {
    render(<ValueView label="content" value={snapshot(120)} fileStem="t" />)
    expect(toggle('bank_account')).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByText('{ 2 keys }', { exact: false })).toBeInTheDocument()
    expect(toggle('user_account')).toHaveAttribute('aria-expanded', 'true')
    expect(() => toggle('transactions')).toThrow('0 fold buttons')
    fireEvent.click(toggle('bank_account'))
    expect(toggle('bank_account')).toHaveAttribute('aria-expanded', 'true')
    // 120 transactions: folded (too big), then 100 shown at a time.
    fireEvent.click(toggle('transactions'))
    const list = document.querySelector<HTMLElement>('ul[aria-label="transactions"]')!
    expect(list.querySelectorAll(':scope > li > .json__toggle[aria-expanded="false"]')).toHaveLength(100)
    fireEvent.click(within(list).getByText('Show 20 more of 20'))
    expect(list.querySelectorAll(':scope > li > .json__toggle')).toHaveLength(120)
    expect(within(list).queryByText(/^Show \d+ more/)).toBeNull()
    // Fold all folds every node below the root; Unfold all opens them again.
    fireEvent.click(screen.getByRole('button', { name: 'Fold all' }))
    expect(toggle('bank_account')).toHaveAttribute('aria-expanded', 'false')
    expect(toggle('user_account')).toHaveAttribute('aria-expanded', 'false')
    fireEvent.click(screen.getByRole('button', { name: 'Unfold all' }))
    expect(toggle('bank_account')).toHaveAttribute('aria-expanded', 'true')
    expect(toggle('transactions')).toHaveAttribute('aria-expanded', 'true')
  }, 20_000)

  it('cuts a long string leaf and shows the rest on request', () => {
    const long = `start ${'x'.repeat(5_000)} end`
    render(<ValueView label="answer" value={{ output: long }} fileStem="t" />)
    expect(screen.queryByText(/ end$/)).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'more (5,010 chars)' }))
    expect(screen.getByText(/ end$/)).toBeInTheDocument()
  })

  it('renders every hostile string as text, as keys and values, in and out of JSON strings', () => {
    const value = Object.fromEntries(HOSTILE_STRINGS.map((s, i) => [s, { [`v${i}`]: s, nested: JSON.stringify({ s }) }]))
    const { container } = render(<ValueView label="content" value={value} fileStem="t" />)
    fireEvent.click(screen.getByRole('button', { name: 'Unfold all' }))
    const tree = screen.getByTestId('json-tree')
    for (const s of HOSTILE_STRINGS.slice(0, 5)) expect(tree.textContent).toContain(s.slice(0, 20))
    expect(container.querySelector('img, script, iframe, svg, object, embed, video, marquee, input, details')).toBeNull()
    expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined()
  }, 20_000)

  it('leaves plain text as text', () => {
    render(<ValueView label="answer" value="Hello {not json}" fileStem="t" />)
    expect(screen.queryByTestId('json-tree')).toBeNull()
    expect(screen.getByTestId('value-text')).toHaveTextContent('Hello {not json}')
  })
})
