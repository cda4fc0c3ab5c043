/**
 * Issue 12's designer figure: how long the designer takes to open and fit a forest imported from a target's
 * manifest URL (Import ▸ Target URL, as a superred user would), in Chromium against a production build: from
 * the click on Import to every tag of the forest painted inside the canvas with the fit settled (the viewport
 * unchanged for three frames), in the page's own clock. Measured for AgentDojoTarget's 32-tag forest served by
 * `redscope-bridge serve` (the repo's .venv), against the baseline in the same command: the 5-tag forest of
 * redscope's own demo chatbot served in this process. Rounds alternate, each in a fresh browser context.
 * Figures are printed, never asserted.
 */
import type { Browser } from '@playwright/test'
import { createTargetServer } from '../src/servers/target'
import { referenceTargetOptions } from '../src/reference-targets'
import { spawnBridge, venvHas, type SpawnedServer } from '../src/testing/pythonBridge'
import { withApp } from './app'
import { med, row } from './util'

const ROUNDS = 5

interface Timing {
  /** Click → every tag node in the DOM with a size (before the fit's animation ends). */
  readonly painted: number
  /** Click → every tag inside the canvas, the viewport unchanged for three frames (the fit settled). */
  readonly fitted: number
  /** The fitted zoom, the smallest name as drawn (font px x zoom), and how many names are cut. */
  readonly zoom: number
  readonly namePx: number
  readonly cut: number
}

/**
 * In a new empty workspace (so both forests start from the same empty canvas and both fits animate), click
 * Import with `url` typed in, then wait in the page until `tags` nodes are painted inside the fitted canvas.
 */
async function importAndFit(browser: Browser, base: string, url: string, tags: number): Promise<Timing> {
  // The probe is a string (tsx's helpers do not exist in the page), which the app's CSP would refuse to evaluate.
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, bypassCSP: true })
  try {
    const page = await context.newPage()
    page.on('dialog', (d) => void d.accept())
    await page.goto(`${base}/`)
    await page.locator('.react-flow__node').first().waitFor()
    const newWorkspace = page.locator('details', { has: page.locator('summary', { hasText: '+ New workspace' }) }).first()
    await newWorkspace.locator('summary').click()
    await page.getByRole('button', { name: 'Empty forest' }).click()
    await page.getByText('This forest is empty.').waitFor()
    const details = page.locator('details', { has: page.locator('summary', { hasText: 'Import' }) }).first()
    await details.locator('summary').click()
    await page.getByLabel('Target URL (GET /manifest)').fill(url)
    return (await page.evaluate(`new Promise((resolve, reject) => {
      const button = [...document.querySelectorAll('form.menu__form button[type=submit]')][0]
      let last = '', still = 0, painted = 0
      const t0 = performance.now()
      const check = () => {
        const canvas = document.querySelector('.forest-canvas').getBoundingClientRect()
        const nodes = [...document.querySelectorAll('.react-flow__node')]
        const vp = document.querySelector('.react-flow__viewport').style.transform
        if (!painted && nodes.length === ${tags} && nodes.every((n) => n.getBoundingClientRect().width > 0)) painted = performance.now()
        const inside = nodes.length === ${tags} && nodes.every((n) => {
          const b = n.getBoundingClientRect()
          return b.width > 0 && b.left >= canvas.left - 0.5 && b.top >= canvas.top - 0.5 && b.right <= canvas.right + 0.5 && b.bottom <= canvas.bottom + 0.5
        })
        still = inside && vp === last ? still + 1 : 0
        last = vp
        // Settled: three frames in a row with every tag inside and the same viewport; the time is the first of them.
        if (still === 1) settledAt = performance.now()
        if (still === 3) {
          const zoom = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')).transform).a
          const names = [...document.querySelectorAll('.react-flow__node .tag-node__name')]
          const namePx = Math.min(...names.map((el) => parseFloat(getComputedStyle(el).fontSize) * zoom))
          const cut = names.filter((el) => el.scrollWidth > el.clientWidth).length
          return resolve({ painted: painted - t0, fitted: settledAt - t0, zoom, namePx, cut })
        }
        if (performance.now() - t0 > 60000) return reject(new Error('not fitted after 60 s: ' + nodes.length + ' nodes'))
        requestAnimationFrame(check)
      }
      let settledAt = 0
      button.click()
      requestAnimationFrame(check)
    })`)) as Timing
  } finally {
    await context.close()
  }
}

export default async function forestFitBench(): Promise<void> {
  if (!venvHas('redscope-bridge')) {
    console.log('forestFit: no .venv (run bash scripts/test-all.sh once to make it); nothing measured')
    return
  }
  const demo = await createTargetServer(referenceTargetOptions('chatbot')).listen(0)
  let bridge: SpawnedServer | null = null
  try {
    // The manifest is read once at start-up; the agent's model is never called here.
    const kwargs = JSON.stringify({ pipeline_model: 'openai/gpt-4o-mini', api_base: 'http://127.0.0.1:9/v1', api_key: 'unused' })
    bridge = await spawnBridge('agentdojo_target:AgentDojoTarget', ['--kwargs', kwargs, '--name', 'agentdojo'])
    const demoTags = ((await (await fetch(`${demo.url}/manifest`)).json()) as { security_domain: unknown[] }).security_domain.length
    const agentTags = ((await (await fetch(`${bridge.url}/manifest`)).json()) as { security_domain: unknown[] }).security_domain.length
    await withApp(async ({ base, browser }) => {
      await importAndFit(browser, base, demo.url, demoTags) // warm: HTTP and code caches
      const baseline: Timing[] = []
      const agentdojo: Timing[] = []
      for (let i = 0; i < ROUNDS; i++) {
        baseline.push(await importAndFit(browser, base, demo.url, demoTags))
        agentdojo.push(await importAndFit(browser, base, bridge!.url, agentTags))
      }
      const fitted = (ts: Timing[]) => ts.map((t) => t.fitted)
      const painted = (ts: Timing[]) => ts.map((t) => t.painted)
      row(`designer, 1280x720, ${ROUNDS} rounds: Import ▸ Target URL →`, 'painted ms', 'fitted ms (median)', 'fitted min', 'max')
      row(
        `  baseline: demo chatbot, ${demoTags} tags (serve-target)`,
        med(painted(baseline)),
        med(fitted(baseline)),
        Math.min(...fitted(baseline)),
        Math.max(...fitted(baseline)),
      )
      row(
        `  AgentDojoTarget, ${agentTags} tags (redscope-bridge)`,
        med(painted(agentdojo)),
        med(fitted(agentdojo)),
        Math.min(...fitted(agentdojo)),
        Math.max(...fitted(agentdojo)),
      )
      const legibility = (ts: Timing[]) =>
        `zoom ${med(ts.map((t) => t.zoom)).toFixed(2)}, names ${med(ts.map((t) => t.namePx)).toFixed(1)} px, ${Math.max(...ts.map((t) => t.cut))} cut`
      row('  fitted legibility: baseline', legibility(baseline))
      row('  fitted legibility: AgentDojo', legibility(agentdojo))
      row(
        '  ratio AgentDojo / baseline',
        `${(med(painted(agentdojo)) / med(painted(baseline))).toFixed(2)}x`,
        `${(med(fitted(agentdojo)) / med(fitted(baseline))).toFixed(2)}x`,
      )
    })
  } finally {
    await bridge?.close()
    await demo.close()
  }
}
