import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  vi.resetModules()
})
afterEach(() => {
  localStorage.clear()
  sessionStorage.clear()
})

describe('setup store', () => {
  it('keeps the setup in localStorage, and never a key', async () => {
    const { useSetup, setupActions } = await import('./setupStore')
    const { secretsActions } = await import('./secretsStore')
    setupActions().setTarget({ kind: 'http', httpUrl: 'http://127.0.0.1:8765' })
    setupActions().setLlm('attackerLlm', { model: 'gpt-4o-mini' })
    secretsActions().set('attackerKey', 'sk-live-abc')
    secretsActions().set('targetToken', 'tok-123')
    const saved = localStorage.getItem('redscope-run-setup')!
    expect(JSON.parse(saved).state.target.httpUrl).toBe('http://127.0.0.1:8765')
    expect(saved).not.toContain('sk-live-abc')
    expect(saved).not.toContain('tok-123')
    expect(useSetup.getState().threat.attackerLlm.model).toBe('gpt-4o-mini')
  })

  it('a damaged or older stored setup falls back to the defaults instead of being half-applied', async () => {
    localStorage.setItem('redscope-run-setup', JSON.stringify({ state: { v: 1, target: { kind: 'nonsense' } }, version: 1 }))
    const { useSetup } = await import('./setupStore')
    const { defaultSetup } = await import('./setupTypes')
    expect(useSetup.getState().target).toEqual(defaultSetup().target)
  })

  it('claim tasks and payload templates are edited in place by id', async () => {
    const { useSetup, setupActions } = await import('./setupStore')
    setupActions().addTask()
    const id = useSetup.getState().claim.tasks[0].id
    setupActions().updateTask(id, { goal: 'g', evaluator: { type: 'trajectory_match', pattern: 'x' } })
    expect(useSetup.getState().claim.tasks[0]).toMatchObject({
      goal: 'g',
      evaluator: { type: 'trajectory_match', pattern: 'x', query: '' },
    })
    setupActions().removeTask(id)
    expect(useSetup.getState().claim.tasks).toEqual([])
    const first = useSetup.getState().attacker.templates[0]
    setupActions().updateTemplate(first.id, { on: false })
    expect(useSetup.getState().attacker.templates[0].on).toBe(false)
    setupActions().togglePick('5')
    setupActions().togglePick('7')
    setupActions().togglePick('5')
    expect(useSetup.getState().sweep.picked).toEqual(['7'])
  })
})

describe('keys', () => {
  it('live in sessionStorage by default, move to localStorage only when kept, and are forgotten from both', async () => {
    const { useSecrets, secretsActions } = await import('./secretsStore')
    secretsActions().set('openaiKey', 'sk-session')
    expect(sessionStorage.getItem('redscope-run-keys')).toContain('sk-session')
    expect(localStorage.getItem('redscope-run-keys')).toBeNull()
    secretsActions().setKeep(true)
    expect(localStorage.getItem('redscope-run-keys')).toContain('sk-session')
    expect(sessionStorage.getItem('redscope-run-keys')).toBeNull()
    secretsActions().forget()
    expect(localStorage.getItem('redscope-run-keys')).toBeNull()
    expect(sessionStorage.getItem('redscope-run-keys')).toBeNull()
    expect(useSecrets.getState().values.openaiKey).toBe('')
  })

  it('a kept key is back after a reload; a key of this tab only is read from sessionStorage', async () => {
    localStorage.setItem('redscope-run-keys', JSON.stringify({ judgeKey: 'sk-kept' }))
    const first = await import('./secretsStore')
    expect(first.useSecrets.getState()).toMatchObject({ keep: true, values: { judgeKey: 'sk-kept', attackerKey: '' } })
    localStorage.clear()
    sessionStorage.setItem('redscope-run-keys', JSON.stringify({ attackerKey: 'sk-tab' }))
    vi.resetModules()
    const second = await import('./secretsStore')
    expect(second.useSecrets.getState()).toMatchObject({ keep: false, values: { attackerKey: 'sk-tab' } })
  })
})
