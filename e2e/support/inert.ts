/**
 * Proof that hostile content stayed data in a page: no script ran (no
 * `window.__pwned`, no dialog), nothing navigated or opened a page, nothing
 * reached example.invalid (where every navigating or exfiltrating payload
 * points), no element carries an event handler or a script URL, and the page
 * still answers at once.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test'

export interface Watch {
  readonly dialogs: string[]
  readonly popups: string[]
  readonly outside: string[]
  readonly navigations: string[]
}

export function watch(page: Page, context: BrowserContext): Watch {
  const w: Watch = { dialogs: [], popups: [], outside: [], navigations: [] }
  page.on('dialog', (d) => {
    w.dialogs.push(d.message())
    void d.dismiss()
  })
  context.on('page', (p) => w.popups.push(p.url()))
  const outside = (url: string) => /example\.invalid|^javascript:|^vbscript:/i.test(url)
  context.on('request', (r) => {
    if (outside(r.url())) w.outside.push(r.url())
  })
  page.on('framenavigated', (f) => {
    if (f !== page.mainFrame()) w.navigations.push(`frame: ${f.url()}`)
  })
  return w
}

/** What the DOM holds that only markup could have put there. */
function markupFound(): string[] {
  const found: string[] = []
  for (const el of Array.from(document.querySelectorAll('*'))) {
    for (const a of Array.from(el.attributes)) {
      if (/^on/i.test(a.name)) found.push(`${el.tagName} ${a.name}`)
      if (/^(href|src|action|formaction|data|srcdoc)$/i.test(a.name) && /^\s*(javascript|vbscript|data:text\/html)/i.test(a.value))
        found.push(`${el.tagName} ${a.name}=${a.value.slice(0, 40)}`)
    }
  }
  for (const sel of [
    'iframe',
    'object',
    'embed',
    'base',
    'meta[http-equiv="refresh" i]',
    'form[action]',
    'script:not([src])',
    'marquee',
    'template',
  ]) {
    const n = document.querySelectorAll(sel).length
    if (n) found.push(`${n} × ${sel}`)
  }
  for (const s of Array.from(document.querySelectorAll('style'))) {
    if (/display:none!important|visibility:hidden|example\.invalid|__pwned/.test(s.textContent ?? '')) found.push('a payload <style>')
  }
  return found
}

/** Asserts the page is unharmed and answers within `boundMs`, at `url`. */
export async function expectInert(page: Page, w: Watch, url: string, boundMs = 2_000): Promise<void> {
  const started = Date.now()
  const state = await page.evaluate(() => ({ pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null, href: location.href }))
  expect(Date.now() - started, 'the page answered page.evaluate in time').toBeLessThan(boundMs)
  expect(state.pwned).toBeNull()
  expect(state.href).toBe(url)
  expect(page.url()).toBe(url)
  expect(await page.evaluate(markupFound)).toEqual([])
  expect(w.dialogs).toEqual([])
  expect(w.popups).toEqual([])
  expect(w.outside).toEqual([])
  expect(w.navigations).toEqual([])
}
