import { commit, redo, startHistory, undo } from './history'

describe('history', () => {
  it('undoes and redoes, a new commit clears the redo stack', () => {
    let h = startHistory('a')
    h = commit(h, 'b')
    h = commit(h, 'c')
    h = undo(h)
    expect(h.present).toBe('b')
    h = undo(h)
    expect(h.present).toBe('a')
    expect(undo(h)).toBe(h)
    h = redo(h)
    expect(h.present).toBe('b')
    h = commit(h, 'd')
    expect(h.future).toEqual([])
    expect(redo(h)).toBe(h)
    expect(h.past).toEqual(['a', 'b'])
  })

  it('records nothing for the same object and keeps at most `limit` steps', () => {
    const h = startHistory({ n: 0 })
    expect(commit(h, h.present)).toBe(h)
    let g = startHistory(0)
    for (let i = 1; i <= 10; i++) g = commit(g, i, 3)
    expect(g.past).toEqual([7, 8, 9])
  })
})
