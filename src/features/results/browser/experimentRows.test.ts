import type { ExperimentsIndexRow } from '../../../core/results'
import { costText, experimentRowView, grantedTags, matchesQuery, viewExperiments } from './experimentRows'

function row(
  dir: string,
  over: {
    completed_at?: string | null
    status?: string
    scope_label?: string | null
    scope?: string[]
    read_only?: string[]
    target?: string
  } = {},
): ExperimentsIndexRow {
  return {
    dir,
    slug: dir.slice(0, -9),
    hash: dir.slice(-8),
    status: over.status ?? 'complete',
    experiment: {
      slug: dir.slice(0, -9),
      hash: dir.slice(-8),
      attacker: 'template',
      target: over.target ?? 'redscope-assistant',
      claim: 'assistant-exfiltration',
      model: null,
      scope: over.scope ?? ['inbox'],
      read_only: over.read_only ?? [],
      scope_label: over.scope_label ?? null,
      task_cost_cap_usd: null,
      task_time_cap_s: null,
      max_runs_per_task: 3,
      include_feedback: true,
      concurrency: 1,
      n_tasks: 4,
    },
    summary: { asr: 0.5, n_success: 2, n_completed: 4, total_llm_usage: { calls: 0, cost: 0 } },
    completed_at: over.completed_at === undefined ? '2026-11-30T10:00:00Z' : over.completed_at,
  }
}

describe('experiment rows', () => {
  it('name a threat model by its saved name, else by the tags it grants', () => {
    expect(experimentRowView(row('a-11111111', { scope_label: 'Guide: blind user' }))).toMatchObject({
      threatModel: 'Guide: blind user',
      named: true,
    })
    expect(experimentRowView(row('a-11111111', { scope: ['inbox', 'drive'], read_only: ['calendar'] })).threatModel).toBe(
      'inbox, drive, calendar (read only)',
    )
    expect(grantedTags([], [])).toBe('nothing granted')
  })

  it("take a saved threat model's name from threat_model_name, the tags it grants beside it, both searchable", () => {
    const named = { ...row('a-11111111', { scope: ['user'], read_only: ['system_prompt'] }), threat_model_name: 'Guide: reads the prompt' }
    expect(experimentRowView(named)).toMatchObject({
      threatModel: 'Guide: reads the prompt',
      named: true,
      grants: 'user, system_prompt (read only)',
    })
    expect(matchesQuery(experimentRowView(named), 'reads system_prompt')).toBe(true)
  })

  it('say the outcome in words, and that an unfinished experiment is in progress', () => {
    expect(experimentRowView(row('a-11111111')).outcome).toBe('50% (2 of 4 tasks, 95% CI 15–85%)')
    expect(experimentRowView(row('a-11111111', { status: 'in_progress', completed_at: null }))).toMatchObject({
      inProgress: true,
      outcome: 'in progress: 2 of 4 so far',
    })
  })

  it('word an experiment that held as what it is: not broken in N tasks by its attacker, with the upper bound', () => {
    const held = row('a-11111111')
    const view = experimentRowView({ ...held, summary: { ...held.summary, asr: 0, n_success: 0, n_completed: 7 } })
    expect(view.outcome).toBe('not broken in 7 tasks by template (≤ 36% at 95%)')
  })

  it('list unfinished experiments first, then the newest completed', () => {
    const rows = [
      row('old-11111111', { completed_at: '2026-11-01T00:00:00Z' }),
      row('live-22222222', { completed_at: null, status: 'in_progress' }),
      row('new-33333333', { completed_at: '2026-11-30T00:00:00Z' }),
    ]
    expect(viewExperiments(rows, '').map((r) => r.dir)).toEqual(['live-22222222', 'new-33333333', 'old-11111111'])
  })

  it('filter by every word, across names, target, claim, attacker and folder', () => {
    const v = experimentRowView(row('x-44a31aa2', { scope_label: 'Guide: blind user', target: 'redscope-chatbot' }))
    expect(matchesQuery(v, 'blind CHATBOT')).toBe(true)
    expect(matchesQuery(v, '44a31aa2')).toBe(true)
    expect(matchesQuery(v, 'blind money')).toBe(false)
    expect(matchesQuery(v, '   ')).toBe(true)
  })

  it('carry the LLM spend, and say when the tree does not', () => {
    const spent = row('a-11111111')
    const withCost = { ...spent, summary: { ...spent.summary, total_llm_usage: { calls: 5, cost: 0.00105 } } }
    expect(costText(experimentRowView(withCost).cost)).toBe('$0.00105')
    expect(costText(1.5)).toBe('$1.5000')
    const without = { ...spent, summary: { ...spent.summary, total_llm_usage: null } }
    expect(experimentRowView(without).cost).toBeNull()
    expect(costText(null)).toBe('–')
  })
})
