import { expect, test } from '@playwright/test'

test('the built app forbids inline script through its Content-Security-Policy', async ({ page }) => {
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  await page.goto('/')
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')
  const scriptSrc = csp!
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('script-src'))
  expect(scriptSrc).toBe("script-src 'self'")
  // The app itself runs under the policy without a single violation...
  await expect(page.getByRole('group', { name: 'system', exact: true })).toBeVisible()
  expect(violations).toEqual([])
  // ...and markup smuggled into the page cannot run script.
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { __pwned?: boolean }
    const div = document.createElement('div')
    div.innerHTML = '<img src="x" onerror="window.__pwned=true"><script>window.__pwned=true</script>'
    document.body.append(div)
    const s = document.createElement('script')
    s.textContent = 'window.__pwned = true'
    document.body.append(s)
    await new Promise((r) => setTimeout(r, 300))
    return w.__pwned === true
  })
  expect(ran).toBe(false)
})
