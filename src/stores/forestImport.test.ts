import 'fake-indexeddb/auto'
import { docFromForest } from '../core/model'
import { CHATBOT_FOREST, type Forest } from '../core/tags'
import { createDesignerStore, designerStore } from './designerStore'
import { replaceForest } from './forestCommands'
import { importForest, uniqueName, whereItWent } from './forestImport'
import { newTagId } from './ids'
import { openWorkspaceRepo, type WorkspaceRepo } from './workspaceRepo'
import { createWorkspaceService, UNTITLED } from './workspaceService'
import { createWorkspaceStore, workspaceStore } from './workspaceStore'
import type { SavedModel } from './workspaceTypes'

/** The seeded workspace's shape: the chatbot forest with the guide's six attackers saved (see src/app/demoWorkspace.ts). */
const GUIDE: ReadonlyArray<[string, string[], string[]]> = [
  ['blind user', ['user'], []],
  ['user who knows the model', ['user', 'model_identity'], []],
  ['user who sees the system prompt', ['user'], ['system_prompt']],
  ['user who overrides the system prompt', ['user', 'system_prompt'], []],
  ['user who reads the responses', ['user'], ['model']],
  ['compromised output', ['user', 'model'], []],
]
function seed() {
  const doc = docFromForest(CHATBOT_FOREST, newTagId)
  const idOf = (name: string) => doc.tags.find((t) => t.name === name)!.id
  const models: SavedModel[] = GUIDE.map(([name, scope, readOnly], i) => ({
    id: `guide-${i + 1}`,
    name,
    scope: scope.map(idOf),
    readOnly: readOnly.map(idOf),
    notes: '',
    savedAt: 1,
  }))
  return { name: 'Chatbot (guide example)', doc, models }
}

/** A target's forest that shares `user` and `model` with the chatbot and lacks the rest. */
const TARGET: Forest = {
  tags: [
    ['user', null],
    ['model', null],
    ['tools', null],
    ['inbox', 'tools'],
  ].map(([name, parent]) => ({ name: name!, parent, description: '' })),
}
const TARGET_REF = { kind: 'url' as const, url: 'http://127.0.0.1:8765' }

let dbName = 0
async function page(repo?: WorkspaceRepo) {
  repo ??= await openWorkspaceRepo(`import-${++dbName}`)
  const designer = createDesignerStore()
  const workspaces = createWorkspaceStore()
  const service = createWorkspaceService(repo, designer, workspaces)
  await service.boot(seed)
  const open = { designer, workspaces }
  /** Every saved threat model with the names its ids resolve to in the open document (unresolved ids dropped). */
  const resolved = () => {
    const names = new Map(designer.getState().history.present.tags.map((t) => [t.id, t.name]))
    return workspaces.getState().models.map((m) => [m.name, [...m.scope, ...m.readOnly].map((id) => names.get(id) ?? '(gone)')])
  }
  return { repo, designer, workspaces, service, open, resolved, svc: () => service }
}

describe('importing a forest', () => {
  it('goes into a new workspace named after the target, opened and connected; the seeded workspace is untouched on disk', async () => {
    const p = await page()
    const seeded = p.workspaces.getState().activeId!
    const before = await p.service.read(seeded)
    const out = await importForest({ forest: TARGET, name: 'support-agent', target: TARGET_REF }, 'new', p.open, p.svc)
    expect(out).toEqual({ into: 'new', workspace: 'support-agent' })
    expect(whereItWent(out)).toBe(' into a new workspace, “support-agent”.')
    const w = p.workspaces.getState()
    expect(w.activeId).not.toBe(seeded)
    expect(w.name).toBe('support-agent')
    expect(w.target).toEqual(TARGET_REF)
    expect(w.models).toEqual([])
    expect(p.designer.getState().history.present.tags.map((t) => t.name)).toEqual(['user', 'model', 'tools', 'inbox'])
    expect(w.workspaces.map((x) => x.name)).toEqual(['Chatbot (guide example)', 'support-agent'])
    await p.service.flush()
    const after = await p.repo.get(seeded)
    expect(after!.doc).toEqual(before!.doc)
    expect(after!.models).toEqual(before!.models)
    expect(after!.target).toBeNull()
    // Back in the seeded workspace, every saved threat model still grants what it did.
    await p.service.open(seeded)
    expect(p.resolved()).toEqual(GUIDE.map(([name, scope, readOnly]) => [name, [...scope, ...readOnly]]))
    // A second import of the same target gets a name of its own.
    expect((await importForest({ forest: TARGET, name: 'support-agent' }, 'new', p.open, p.svc)).workspace).toBe('support-agent (2)')
    p.service.stop()
  })

  it('replacing is one undoable edit that keeps the saved threat models and names the ones that lose tags', async () => {
    const p = await page()
    const models = p.workspaces.getState().models
    const out = await importForest({ forest: TARGET, name: 'support-agent', target: TARGET_REF }, 'replace', p.open, p.svc)
    expect(out.into).toBe('replace')
    if (out.into !== 'replace') return
    expect(out.workspace).toBe('Chatbot (guide example)')
    expect(out.lost).toEqual([
      { model: 'user who knows the model', tags: ['model_identity'] },
      { model: 'user who sees the system prompt', tags: ['system_prompt'] },
      { model: 'user who overrides the system prompt', tags: ['system_prompt'] },
    ])
    expect(whereItWent(out)).toBe(
      ', replacing the forest of “Chatbot (guide example)” (Undo brings it back). 3 saved threat models grant tags the new forest lacks: ' +
        '“user who knows the model” loses model_identity; “user who sees the system prompt” loses system_prompt; “user who overrides the system prompt” loses system_prompt.',
    )
    const w = p.workspaces.getState()
    expect(w.workspaces).toHaveLength(1)
    expect(w.name).toBe('Chatbot (guide example)')
    expect(w.target).toEqual(TARGET_REF)
    // The saved threat models are the same objects; those whose tags stay still grant them.
    expect(w.models).toBe(models)
    expect(p.resolved()).toEqual([
      ['blind user', ['user']],
      ['user who knows the model', ['user', '(gone)']],
      ['user who sees the system prompt', ['user', '(gone)']],
      ['user who overrides the system prompt', ['user', '(gone)']],
      ['user who reads the responses', ['user', 'model']],
      ['compromised output', ['user', 'model']],
    ])
    p.designer.getState().undo()
    expect(
      p.designer
        .getState()
        .history.present.tags.map((t) => t.name)
        .sort(),
    ).toEqual(CHATBOT_FOREST.tags.map((t) => t.name).sort())
    expect(p.resolved()).toEqual(GUIDE.map(([name, scope, readOnly]) => [name, [...scope, ...readOnly]]))
    p.service.stop()
  })

  it('replaceForest (templates, "Use the target\'s forest") keeps the ids of tags that stay, so saved threat models keep them', () => {
    // The app's own stores, as the designer's template and target buttons use them.
    const s = seed()
    designerStore.getState().load(s.doc)
    workspaceStore.setState({ name: s.name, models: s.models })
    const r = replaceForest(TARGET, { scope: [], readOnly: [] })
    const ids = new Set(designerStore.getState().history.present.tags.map((t) => t.id))
    expect(s.models[0].scope.every((id) => ids.has(id))).toBe(true)
    expect(s.models[5].scope.every((id) => ids.has(id))).toBe(true)
    expect(r.lost.map((l) => l.model)).toEqual([
      'user who knows the model',
      'user who sees the system prompt',
      'user who overrides the system prompt',
    ])
  })

  it("an empty, unsaved, untitled workspace takes the forest itself and the target's name; a named one keeps its name", async () => {
    const p = await page()
    await p.service.create(UNTITLED, { tags: [], scope: [], readOnly: [] })
    const out = await importForest({ forest: TARGET, name: 'support-agent', target: TARGET_REF }, 'new', p.open, p.svc)
    expect(out).toEqual({ into: 'empty', workspace: 'support-agent', renamed: true })
    expect(p.workspaces.getState().workspaces).toHaveLength(2)
    expect(p.workspaces.getState().target).toEqual(TARGET_REF)
    p.designer.getState().undo()
    expect(p.designer.getState().history.present.tags).toEqual([])

    await p.service.create('My agent', { tags: [], scope: [], readOnly: [] })
    expect(await importForest({ forest: TARGET, name: 'support-agent' }, 'new', p.open, p.svc)).toEqual({
      into: 'empty',
      workspace: 'My agent',
      renamed: false,
    })
    p.service.stop()
  })

  it('unique names count up past those taken', () => {
    expect(uniqueName('a', [])).toBe('a')
    expect(uniqueName('a', ['a', 'a (2)', 'b'])).toBe('a (3)')
  })
})
