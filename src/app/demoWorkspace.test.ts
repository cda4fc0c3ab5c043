import 'fake-indexeddb/auto'
import { toForest } from '../core/model'
import { buildDomain, validateScope } from '../core/tags'
import { createDesignerStore } from '../stores/designerStore'
import { openWorkspaceRepo } from '../stores/workspaceRepo'
import { createWorkspaceService } from '../stores/workspaceService'
import { createWorkspaceStore } from '../stores/workspaceStore'
import { demoWorkspace } from './demoWorkspace'

describe('the first-visit demo workspace', () => {
  it('saves the guide’s chatbot threat models, each a clean scope over the forest', () => {
    const seed = demoWorkspace()
    const domain = buildDomain(toForest(seed.doc))
    const nameOf = new Map(seed.doc.tags.map((t) => [t.id, t.name]))
    expect(seed.models?.map((m) => m.name)).toContain('Guide: blind user')
    for (const m of seed.models ?? []) {
      const findings = validateScope(
        domain,
        m.scope.map((id) => nameOf.get(id)!),
        m.readOnly.map((id) => nameOf.get(id)!),
      )
      expect(findings, m.name).toEqual([])
    }
    // Granting stays the user's first click: the current scope starts empty.
    expect(seed.doc.scope).toEqual([])
  })

  it('is what a first boot stores, models included, and a second boot finds them', async () => {
    const repo = await openWorkspaceRepo('demo-seed-test')
    const boot = async () => {
      const workspaces = createWorkspaceStore()
      await createWorkspaceService(repo, createDesignerStore(), workspaces).boot(() => demoWorkspace())
      return workspaces.getState()
    }
    const first = await boot()
    expect(first.models).toHaveLength(6)
    const again = await boot()
    expect(again.models.map((m) => m.name)).toEqual(first.models.map((m) => m.name))
    expect(again.workspaces).toHaveLength(1)
  })
})
