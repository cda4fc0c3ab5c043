/**
 * The comparison painted on the forest: each tag counts the threat models
 * whose grant covers it (a parent covering its subtree, read-only included),
 * and takes the most pressing change of theirs, regressions first.
 */
import { MemoryStorage } from '../results/memoryStorage'
import { CHANGE_LEGEND, changeFill, changeWords, compareSides, paintChanges, readSide, type Side } from '.'
import { writeTree, type TreeSpec } from './testTrees'
import type { Forest } from '../tags'

const GOALS = ['leak the code', 'send money']
const FOREST: Forest = {
  tags: [
    { name: 'user', parent: null, description: '' },
    { name: 'tools', parent: null, description: '' },
    { name: 'inbox', parent: 'tools', description: '' },
    { name: 'drive', parent: 'tools', description: '' },
    { name: 'bank', parent: null, description: '' },
    { name: 'policy', parent: null, description: '' },
  ],
} as Forest

async function side(spec: TreeSpec, path: string): Promise<Side> {
  const storage = new MemoryStorage()
  await writeTree(storage, spec)
  return readSide(storage, path)
}

describe('paintChanges', () => {
  it('paints each tag with the changes of the threat models that grant it, regressions first', async () => {
    const base = await side(
      {
        goals: GOALS,
        models: [
          { scope: ['inbox'], outcomes: [false, false] },
          { scope: ['drive'], outcomes: [true, false] },
          { scope: ['user'], readOnly: ['inbox'], outcomes: [false, false] },
          { scope: ['bank'], outcomes: [false, false] },
        ],
      },
      'base',
    )
    const head = await side(
      {
        goals: GOALS,
        models: [
          { scope: ['inbox'], outcomes: [true, true] },
          { scope: ['drive'], outcomes: [false, false] },
          { scope: ['user'], readOnly: ['inbox'], outcomes: [false, false] },
        ],
      },
      'head',
    )
    const paint = paintChanges(FOREST, compareSides(base, head).models)
    // tools covers inbox and drive through its subtree only when granted itself: nobody grants it.
    expect(paint.get('tools')).toMatchObject({ models: 0, change: 'none' })
    // inbox: written by the regressed model, read by the unchanged one.
    expect(paint.get('inbox')).toMatchObject({ models: 2, regressed: 1, regressions: 2, fixed: 0, change: 'regression' })
    expect(paint.get('drive')).toMatchObject({ models: 1, fixed: 1, fixes: 1, change: 'fix' })
    expect(paint.get('user')).toMatchObject({ models: 1, change: 'unchanged' })
    expect(paint.get('bank')).toMatchObject({ models: 1, oneSide: 1, change: 'one-side' })
    expect(changeWords(paint.get('inbox')!).lines).toEqual(['regressed: 1 of 2', 'fixed: 0 of 2', 'regression'])
    expect(changeWords(paint.get('inbox')!).title).toBe(
      'Threat models that grant it: 2; 1 with a regression (2 tasks held→breached), 0 with a fix (0 tasks breached→held). ' +
        'Where the changes are, not what caused them: the list names each threat model.',
    )
    expect(changeWords(paint.get('policy')!).lines[2]).toBe('granted by none')
    // Every colour painted is in the legend, and named there in words.
    const fills = new Set([...paint.values()].map(changeFill))
    expect(fills.size).toBe(5)
    for (const f of fills) expect(CHANGE_LEGEND.find((l) => l.fill === f)?.words).toMatch(/^(red|green|yellow|white|grey): /)
  })

  it('a granted parent covers its subtree; a tag with both a regression and a fix is painted as the regression', async () => {
    const base = await side({ goals: GOALS, models: [{ scope: ['tools'], outcomes: [false, true] }] }, 'b')
    const head = await side({ goals: GOALS, models: [{ scope: ['tools'], outcomes: [true, false] }] }, 'h')
    const paint = paintChanges(FOREST, compareSides(base, head).models)
    for (const t of ['tools', 'inbox', 'drive'])
      expect(paint.get(t)).toMatchObject({ models: 1, regressed: 1, fixed: 1, change: 'regression' })
    expect(paint.get('user')!.change).toBe('none')
  })
})
