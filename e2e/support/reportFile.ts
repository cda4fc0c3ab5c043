/** Opens a downloaded HTML report from file:// in Chromium, recording every Content-Security-Policy violation. */
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { test, type BrowserContext, type Download, type Page } from '@playwright/test'

export interface OpenedReport {
  readonly page: Page
  readonly url: string
  readonly text: string
  readonly cspViolations: () => Promise<string[]>
  readonly consoleCsp: string[]
}

export async function openReportFile(context: BrowserContext, download: Download): Promise<OpenedReport> {
  // Saved under its own name: Playwright's temporary file has no .html, and Chromium would show it as plain text.
  const path = test.info().outputPath(download.suggestedFilename())
  await download.saveAs(path)
  const text = await readFile(path, 'utf8')
  const page = await context.newPage()
  const consoleCsp: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text())
  })
  // Runs before the page's own content (CDP injects it, the page's policy does not apply to it).
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] }
    w.__csp = []
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  const url = pathToFileURL(path).href
  await page.goto(url)
  return {
    page,
    url,
    text,
    consoleCsp,
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
  }
}
