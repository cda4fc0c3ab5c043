/**
 * Designer figures, in Chromium against a `vite preview` of a fresh
 * production build on a free loopback port. For forests of 100, 1,000 and
 * 5,000 tags (opened through a permalink, as a colleague would): the first
 * render (navigation start → tags on screen), and a click-to-validated update
 * (a click on a tag in Pick scope mode → its new grant, its coverage and the
 * engine's finding beside it painted), over the three states of the cycle.
 * In Node: the pure work behind one click on the 5,000-tag forest. Figures
 * are printed, never asserted.
 */
import type { Browser, Page } from '@playwright/test'
import { applyEdit, coverage, docFromForest, scopeFindings, tagIdOf, type DesignDoc } from '../src/core/model'
import type { Forest } from '../src/core/tags'
import { encodePermalink } from '../src/lib/permalink'
import { layoutTree } from '../src/core/layout/forestLayout'
import { withApp } from './app'
import type { RendererCpu } from './rendererCpu'
import { med, median, quantile, row } from './util'

const SIZES = [100, 1_000, 5_000]
/**
 * When in its frame each click lands, ms after a frame starts: spread over the frame as a person's clicks are. How
 * long a click waits for the frame that shows it depends on this phase; left to the harness, the phase followed
 * whatever the page did before the click (an autosave after the previous frame put the next click late in its frame).
 */
const PHASES = [0, 9, 4, 13, 2, 11, 6, 15, 8]
const CLICKS = 9

/** A deterministic forest: a few roots, each tag under an earlier one, 2-6 children per inner tag. */
export function forestOf(size: number): Forest {
  let s = size
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const tags = Array.from({ length: size }, (_, i) => {
    const parent = i < 3 ? null : `t${Math.floor((i - 3) / (2 + Math.floor(rand() * 2)))}`
    return { name: `t${i}`, parent, description: `capability number ${i}` }
  })
  return { tags }
}

/** navigation start → the first tag node painted, in the page's own clock. */
async function firstRender(page: Page, url: string): Promise<{ ms: number; inDom: number }> {
  await page.goto(url)
  const ms = await page
    .waitForFunction(
      `(() => { const n = document.querySelector('.react-flow__node[data-access]'); return n && n.getBoundingClientRect().width > 0 ? performance.now() : null })()`,
      undefined,
      { polling: 'raf', timeout: 120_000 },
    )
    .then((h) => h.jsonValue() as Promise<number>)
  // One more frame, so the measured frame is the painted one.
  const painted = (await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(performance.now())))')) as number
  return { ms: Math.max(ms, painted), inDom: await page.locator('.react-flow__node').count() }
}

/**
 * Clicks a rendered tag whose parent is rendered and granted, so that each
 * click changes the finding beside it: read & write (antichain error), read
 * only (covered by scope), not granted (no finding). Times each click until
 * the node shows its new state and finding, plus one painted frame.
 */
export async function clickToValidated(
  page: Page,
  clicks = CLICKS,
  cpu?: { readonly reader: RendererCpu; readonly samples: number[] },
): Promise<number[]> {
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  const pair = (await page.evaluate(`(() => {
    const rendered = new Set([...document.querySelectorAll('.react-flow__node')].map((n) => n.dataset.id))
    for (const e of document.querySelectorAll('.react-flow__edge')) {
      const [parent, child] = (e.dataset.id || '').split('->')
      if (rendered.has(parent) && rendered.has(child)) return { parent, child }
    }
    return null
  })()`)) as { parent: string; child: string } | null
  if (!pair) throw new Error('no parent and child on screen together')
  const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
  await node(pair.parent).click()
  const samples: number[] = []
  const expected = ['scope', 'read_only', 'none'] as const
  for (let i = 0; i < clicks; i++) {
    const want = expected[i % 3]
    // With `cpu`, each click's renderer main-thread CPU ms go to cpu.samples too.
    const before = cpu ? await cpu.reader.read() : null
    // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
    samples.push(
      (await page.evaluate(`new Promise((resolve, reject) => {
      const want = ${JSON.stringify(want)}
      const el = document.querySelector('.react-flow__node[data-id="' + CSS.escape(${JSON.stringify(pair.child)}) + '"]')
      const click = () => {
        const t0 = performance.now()
        const observer = new MutationObserver(() => {
          const note = !!el.querySelector('.tag-note')
          if (el.dataset.access !== want || (want === 'none' ? note : !note)) return
          observer.disconnect()
          requestAnimationFrame(() => resolve(performance.now() - t0))
        })
        observer.observe(el, { attributes: true, childList: true, subtree: true })
        el.click()
      }
      requestAnimationFrame(() => setTimeout(click, ${PHASES[i % PHASES.length]}))
      setTimeout(() => reject(new Error('no ' + want + ' after 20 s')), 20000)
    })`)) as number,
    )
    if (cpu && before) cpu.samples.push((await cpu.reader.read()).thread - before.thread)
  }
  return samples
}

/** Opens a forest of `size` tags by permalink in a fresh page; returns the page and its first render. */
export async function openForest(browser: Browser, base: string, size: number) {
  // The probes are strings (tsx's helpers do not exist in the page), which the app's CSP would refuse to evaluate.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true })
  const page = await context.newPage()
  const link = `${base}/#${encodePermalink({ name: `bench ${size}`, forest: forestOf(size), scope: [], readOnly: [] })}`
  const first = await firstRender(page, link)
  return { page, first, close: () => context.close() }
}

/** The page's idle frame interval (rAF to rAF, nothing to do): the same-run baseline of the browser figures. */
export async function idleFrameMs(page: Page, frames = 60): Promise<number> {
  const samples = (await page.evaluate(`new Promise((resolve) => {
    const out = []
    let last = performance.now()
    const tick = () => {
      const now = performance.now()
      out.push(now - last)
      last = now
      if (out.length < ${frames}) requestAnimationFrame(tick)
      else resolve(out)
    }
    requestAnimationFrame(tick)
  })`)) as number[]
  return med(samples.slice(1))
}

export default async function bench(): Promise<void> {
  // In Node: what one click costs the engine and the reducers, without React.
  const big = docFromForest(
    forestOf(5_000),
    (
      (n) => () =>
        tagIdOf(`b${n++}`)
    )(0),
  )
  const parent = big.tags[3]
  const child = big.tags.find((t) => t.parent === parent.id)!
  let doc: DesignDoc = applyEdit(big, { type: 'setAccess', ids: [parent.id], access: 'scope' })
  row('in Node, 5,000 tags', 'ms (median)')
  row(
    '  click: setAccess edit',
    await median(20, () => {
      doc = applyEdit(doc, { type: 'setAccess', ids: [child.id], access: doc.scope.includes(child.id) ? 'none' : 'scope' })
    }),
  )
  row('  coverage of every tag', await median(20, () => coverage(doc.tags, doc)))
  row('  scope findings (engine validateScope)', await median(20, () => scopeFindings(doc)))
  row('  tidy-tree layout (d3-hierarchy)', await median(5, () => layoutTree(doc.tags)))

  await withApp(async ({ base, browser }) => {
    // One throwaway load first, so the first size measured does not pay for a cold HTTP and code cache.
    const warm = await browser.newContext({ bypassCSP: true })
    await firstRender(await warm.newPage(), `${base}/`)
    await warm.close()
    row(
      'in Chromium (vite preview of a production build)',
      'first render ms',
      'tags in DOM',
      'click→validated ms (median)',
      'p95',
      'min',
      'max',
    )
    for (const size of SIZES) {
      const { page, first, close } = await openForest(browser, base, size)
      try {
        const clicks = await clickToValidated(page)
        row(
          `  forest of ${size.toLocaleString('en-US')} tags`,
          first.ms,
          first.inDom,
          med(clicks),
          quantile(clicks, 0.95),
          Math.min(...clicks),
          Math.max(...clicks),
        )
      } finally {
        await close()
      }
    }
  })
}
