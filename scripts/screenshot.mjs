#!/usr/bin/env node
// Usage: [SHOT_WAIT_MS=800] node scripts/screenshot.mjs URL OUT.png [WIDTH HEIGHT]
// (a dev server optimizing dependencies on first load needs a longer wait)
// Looks at a page the way a person would, in Debian's Chromium, and prints the
// page's console so that errors show up next to the picture.
import { chromium } from '@playwright/test'

const [url, out, width = '1280', height = '800'] = process.argv.slice(2)
if (!url || !out) {
  console.error('usage: node scripts/screenshot.mjs URL OUT.png [WIDTH HEIGHT]')
  process.exit(2)
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } })
page.on('console', (m) => console.log(`console.${m.type()}: ${m.text()}`))
page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`))
await page.goto(url)
await page.waitForTimeout(Number(process.env.SHOT_WAIT_MS ?? 800))
await page.screenshot({ path: out })
await browser.close()
