import { expect, test, type Page } from '@playwright/test'
import { openDesigner, tag } from './designerHelpers'
import { EXP, FIXTURE, TASK } from './support/resultsTree'

/**
 * Nothing on any page may scroll the app shell: the navigation stays on screen
 * and each section scrolls inside its own panels. A page that does scroll the
 * document says how far and which element reaches below the window.
 */
async function expectShellStill(page: Page, where: string): Promise<void> {
  await page.waitForTimeout(150) // a relayout after the last change (virtual lists, resize observers)
  const report = await page.evaluate(() => {
    const root = document.scrollingElement!
    const overflow = root.scrollHeight - root.clientHeight
    const sideways = root.scrollWidth - root.clientWidth
    // Leaves whose box ends outside the window and that no scroller clips: where the overflow comes from.
    // An absolutely placed element is clipped only by scrollers inside its containing block (its offsetParent).
    const clipped = (el: HTMLElement): boolean => {
      let a: Element | null = getComputedStyle(el).position === 'absolute' ? el.offsetParent : el.parentElement
      for (; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a)
        if (s.overflowY !== 'visible' || s.overflowX !== 'visible') {
          const r = a.getBoundingClientRect()
          if (r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1) return true
        }
      }
      return false
    }
    const culprits: string[] = []
    if (overflow > 0 || sideways > 0) {
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const b = el.getBoundingClientRect()
        if ((b.bottom > innerHeight + 1 || b.right > innerWidth + 1) && b.width > 0 && el.children.length === 0 && !clipped(el)) {
          culprits.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').slice(0, 40)}"`)
          if (culprits.length >= 5) break
        }
      }
    }
    return { overflow, sideways, culprits }
  })
  expect(report, `${where}: the document scrolls`).toEqual({ overflow: 0, sideways: 0, culprits: [] })
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeInViewport()
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
]) {
  test(`no page scrolls the app shell at ${size.width}x${size.height}`, async ({ page }) => {
    await page.setViewportSize(size)
    await openDesigner(page)
    await expectShellStill(page, 'design')

    // Pick scope with findings shown (a scope that is not an antichain, and one read-only tag).
    await page.getByRole('radio', { name: 'Pick scope' }).click()
    await tag(page, 'system').click()
    await tag(page, 'model').click()
    await expect(page.getByRole('list', { name: 'Scope findings' })).toBeVisible()
    await tag(page, 'user').click()
    await tag(page, 'user').click()
    await expectShellStill(page, 'pick scope with findings')
    for (const tab of ['Threat models', 'Tag', 'Scope']) {
      await page.getByRole('tab', { name: tab, exact: true }).click()
      await expectShellStill(page, `pick scope, ${tab} tab`)
    }

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run' }).click()
    await expect(page).toHaveURL(/\/run/)
    await page.waitForLoadState('networkidle')
    await expectShellStill(page, 'run')

    await page.goto('/results')
    await page.getByTestId('folder-input').setInputFiles(FIXTURE)
    await expect(page.getByRole('link', { name: EXP })).toBeVisible()
    await expectShellStill(page, 'results')
    await page.getByRole('link', { name: EXP }).click()
    await expect(page.getByRole('link', { name: /^leak/ })).toBeVisible()
    await expectShellStill(page, 'experiment')
    await page.getByRole('link', { name: /^leak/ }).click()
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`/${TASK}/1`))
    await expectShellStill(page, 'viewer')
  })
}
