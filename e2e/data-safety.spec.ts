/**
 * Designs are never lost, in real Chromium with real IndexedDB: an edit
 * survives a reload and a renderer crash (CDP Page.crash); a storage quota
 * that runs out (IndexedDB refusing with QuotaExceededError) is reported, and the
 * next edit after space is freed is saved again; a workspace record of an
 * older version migrates, one of a newer version is named and left alone.
 */
import { expect, test, type Page } from '@playwright/test'

const forest = (names: string[]) => JSON.stringify({ tags: names.map((name) => ({ name, parent: null, description: `the ${name}` })) })

async function openDesigner(page: Page) {
  await page.goto('/')
  await expect(page.getByRole('toolbar', { name: 'Designer' })).toBeVisible()
}

/** A forest file into a new workspace, or (`replace`) in place of the open workspace's forest: an edit of it. */
async function importForest(page: Page, names: string[], replace = false) {
  if (replace) {
    const menu = page.locator('details', { has: page.locator('summary', { hasText: 'Import' }) }).first()
    if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click()
    await page.getByRole('radio', { name: /replace this workspace's forest/ }).check()
  }
  await page
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'f.forest.json', mimeType: 'application/json', buffer: Buffer.from(forest(names)) })
  await expect(
    page.getByRole('status').filter({ hasText: `Imported ${names.length} ${names.length === 1 ? 'tag' : 'tags'} from` }),
  ).toBeVisible()
}

const tagVisible = (page: Page, name: string) => expect(page.getByRole('group', { name, exact: true })).toBeVisible()

test('an edit survives an immediate reload and a renderer crash', async ({ page, context }) => {
  await openDesigner(page)
  await importForest(page, ['before_reload'])
  await page.reload()
  await tagVisible(page, 'before_reload')

  await importForest(page, ['before_crash', 'second_root'])
  const cdp = await context.newCDPSession(page)
  const crashed = page.waitForEvent('crash')
  void cdp.send('Page.crash').catch(() => undefined)
  await crashed
  const again = await context.newPage()
  await openDesigner(again)
  await tagVisible(again, 'before_crash')
  await tagVisible(again, 'second_root')
})

test('a full storage is reported, and the next edit once space is back is saved', async ({ page }) => {
  // Chromium's quota override (CDP) is not enforced on a test profile's IndexedDB, so the storage layer
  // itself refuses: every IndexedDB put throws the QuotaExceededError a full disk gives, while the flag is set.
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if ((window as unknown as { __quotaFull?: boolean }).__quotaFull)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      return put.apply(this, args)
    }
  })
  await openDesigner(page)
  await importForest(page, ['kept'])
  await page.evaluate(() => ((window as unknown as { __quotaFull?: boolean }).__quotaFull = true))
  // A new workspace cannot be written: nothing changes, and it says so.
  await page
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'big.forest.json', mimeType: 'application/json', buffer: Buffer.from(forest(['nowhere'])) })
  await expect(page.getByRole('alert')).toContainText('Not imported: the new workspace “big” could not be written.')
  await tagVisible(page, 'kept')
  // An edit of the open workspace (its forest replaced) stays on screen, unsaved, and is said to be.
  await importForest(page, ['unsaved'], true)
  await expect(page.getByRole('alert')).toContainText("Not saved: this browser's storage for redscope is full (QuotaExceededError)")
  // The edit is still on screen, and the page still works.
  await tagVisible(page, 'unsaved')

  await page.evaluate(() => ((window as unknown as { __quotaFull?: boolean }).__quotaFull = false))
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await page.getByRole('button', { name: 'unsaved: not granted. Change access' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved again' })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  await page.reload()
  await tagVisible(page, 'unsaved')
  await expect(page.getByRole('button', { name: 'unsaved: read & write. Change access' })).toBeVisible()
})

test('an older workspace record migrates; a newer one is named and left untouched', async ({ page }) => {
  await openDesigner(page)
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('redscope', 1)
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    const tx = db.transaction(['workspaces', 'settings'], 'readwrite')
    // Version 0: no `v`, no readOnly, no models or target.
    tx.objectStore('workspaces').put({
      id: 'legacy',
      name: 'Legacy workspace',
      createdAt: 1,
      doc: {
        tags: [
          { id: 'a', name: 'legacy_root', parent: null, description: '' },
          { id: 'b', name: 'legacy_child', parent: 'a', description: '' },
        ],
        scope: ['b'],
      },
    })
    tx.objectStore('workspaces').put({
      id: 'future',
      v: 5,
      name: 'Future workspace',
      createdAt: 2,
      updatedAt: 2,
      doc: { tags: [], scope: [], readOnly: [] },
    })
    tx.objectStore('settings').put('legacy', 'activeWorkspace')
    await new Promise((resolve) => (tx.oncomplete = resolve))
    db.close()
  })
  await page.reload()
  await tagVisible(page, 'legacy_child')
  await expect(page.getByRole('complementary', { name: 'Workspaces' })).toContainText('Legacy workspace')
  await expect(page.getByRole('alert')).toContainText('future: saved by a newer redscope (version 5; this one reads up to 2)')
  const future = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve) => {
      const r = indexedDB.open('redscope', 1)
      r.onsuccess = () => resolve(r.result)
    })
    const got = await new Promise((resolve) => {
      const r = db.transaction('workspaces').objectStore('workspaces').get('future')
      r.onsuccess = () => resolve(r.result)
    })
    db.close()
    return got
  })
  expect(future).toMatchObject({ v: 5, name: 'Future workspace' })
})
