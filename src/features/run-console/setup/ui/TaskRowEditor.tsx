import { useId, type ReactNode } from 'react'
import { setupActions } from '../setupStore'
import { EvaluatorKind, type TaskDraft } from '../setupTypes'

const KIND_LABEL: Record<TaskDraft['evaluator']['type'], string> = {
  query_match: 'query_match: regex over a target query',
  query_evaluation: 'query_evaluation: the target judges itself',
  trajectory_match: 'trajectory_match: regex over an observable',
  llm_judge: 'llm_judge: a judge model decides',
  served: "served: the target's own claim task judges",
}

/** A labelled cell; `control` gets the id its label points at (the label names the control and nothing else). */
function Cell({
  label,
  issue,
  control,
  hideLabel,
}: {
  label: string
  issue?: string
  control: (id: string) => ReactNode
  hideLabel?: boolean
}) {
  const id = useId()
  return (
    <div className="rc-cell">
      <label className={hideLabel ? 'rc-sr-only' : 'rc-cell__label'} htmlFor={id}>
        {label}
      </label>
      {control(id)}
      {issue ? (
        <span className="rc-issue" role="alert">
          {issue}
        </span>
      ) : null}
    </div>
  )
}

/** One task of the claim table: goal, config values, evaluator; each cell with its own problem beside it. */
export function TaskRowEditor({ task, index, issues }: { task: TaskDraft; index: number; issues: ReadonlyMap<string, string> }) {
  const at = (path: string) => issues.get(`tasks.${index}.${path}`)
  const update = setupActions().updateTask
  const ev = task.evaluator
  const evInput = (
    key: 'servedTask' | 'query' | 'params' | 'pattern' | 'flags' | 'observable' | 'criteria' | 'observables',
    label: string,
    opts: { multiline?: boolean; mono?: boolean; placeholder?: string } = {},
  ) => {
    const issue =
      at(`evaluator.${key}`) ?? (key === 'query' ? at('evaluator.query.name') : key === 'params' ? at('evaluator.query.params') : undefined)
    const props = {
      className: `rc-input${opts.mono ? ' rc-input--mono' : ''}`,
      value: ev[key],
      placeholder: opts.placeholder,
      spellCheck: false,
      'aria-invalid': issue ? true : undefined,
      onChange: (e: { target: { value: string } }) => update(task.id, { evaluator: { [key]: e.target.value } }),
    }
    return (
      <Cell
        label={label}
        issue={issue}
        control={(id) => (opts.multiline ? <textarea id={id} rows={2} {...props} /> : <input id={id} {...props} />)}
      />
    )
  }
  return (
    <tr data-testid="claim-task">
      <td className="rc-num">{index + 1}</td>
      <td>
        <Cell
          label="Goal"
          hideLabel
          issue={at('goal')}
          control={(id) => (
            <textarea
              id={id}
              className="rc-input"
              rows={3}
              value={task.goal}
              aria-invalid={at('goal') ? true : undefined}
              onChange={(e) => update(task.id, { goal: e.target.value })}
            />
          )}
        />
      </td>
      <td>
        <Cell
          label="Config (name=value per line)"
          hideLabel
          issue={at('config')}
          control={(id) => (
            <textarea
              id={id}
              className="rc-input rc-input--mono"
              rows={3}
              value={task.config}
              placeholder="defence=none"
              spellCheck={false}
              aria-invalid={at('config') ? true : undefined}
              onChange={(e) => update(task.id, { config: e.target.value })}
            />
          )}
        />
      </td>
      <td>
        <Cell
          label="Evaluator"
          hideLabel
          issue={at('evaluator.type') ?? at('evaluator')}
          control={(id) => (
            <select
              id={id}
              className="rc-input"
              value={ev.type}
              onChange={(e) => update(task.id, { evaluator: { type: EvaluatorKind.parse(e.target.value) } })}
            >
              {EvaluatorKind.options.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABEL[k]}
                </option>
              ))}
            </select>
          )}
        />
        <div className="rc-evfields">
          {ev.type === 'query_match' || ev.type === 'query_evaluation'
            ? evInput('query', 'Query', { mono: true, placeholder: 'sent_emails' })
            : null}
          {ev.type === 'served' ? evInput('servedTask', 'Served task (number)', { mono: true, placeholder: '1' }) : null}
          {ev.type === 'trajectory_match' ? evInput('observable', 'Observable', { mono: true, placeholder: 'reply' }) : null}
          {ev.type === 'query_match' || ev.type === 'trajectory_match' ? (
            <div className="rc-row rc-nowrap">
              {evInput('pattern', 'Pattern (regex)', { mono: true })}
              {evInput('flags', 'Flags', { mono: true, placeholder: 'i' })}
            </div>
          ) : null}
          {ev.type === 'llm_judge' ? evInput('criteria', 'Success when…', { multiline: true }) : null}
          {ev.type === 'llm_judge' ? evInput('observables', 'Observables shown (comma list, blank = all)', { mono: true }) : null}
          {ev.type === 'llm_judge' ? evInput('query', 'Query shown to the judge (optional)', { mono: true }) : null}
          {ev.type !== 'trajectory_match' ? evInput('params', 'Query params (name=value per line)', { mono: true, multiline: true }) : null}
        </div>
      </td>
      <td>
        <button
          type="button"
          className="rc-btn rc-btn--ghost rc-btn--small"
          aria-label={`Remove task ${index + 1}`}
          onClick={() => setupActions().removeTask(task.id)}
        >
          ✕
        </button>
      </td>
    </tr>
  )
}
