import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import type { ServedOptimizer } from '../../../../protocol/optimizer'
import { optimizerListQuery } from '../../../../queries/optimizerList'
import { Field } from '../../ui/Field'
import { kwargFields, kwargValue, type KwargField } from '../kwargsForm'
import { secretsActions, useSecrets } from '../secretsStore'
import { setupActions, useSetup } from '../setupStore'

/** One kwarg, typed from the schema: a choice or yes/no as a select, lists as lines, the rest as text. */
function KwargInput({ field, draft }: { field: KwargField; draft: string }) {
  const id = useId()
  const set = (value: string) => {
    const kwargs = { ...useSetup.getState().attacker.served.kwargs, [field.name]: value }
    if (value === '') delete kwargs[field.name]
    setupActions().setServed({ kwargs })
  }
  const { issue } = kwargValue(field, draft)
  const shownIssue = draft.trim() === '' && !field.required ? undefined : issue
  const hint = [field.description, field.placeholder !== '' ? `default ${field.placeholder}` : field.required ? 'required' : '']
    .filter(Boolean)
    .join(' · ')
  if (field.kind === 'enum' || field.kind === 'boolean') {
    const options = field.kind === 'enum' ? field.options : ['true', 'false']
    return (
      <div className="rc-field">
        <label className="rc-label" htmlFor={id}>
          {field.name}
        </label>
        <select id={id} className="rc-input" value={draft} onChange={(e) => set(e.target.value)}>
          <option value="">{field.placeholder !== '' ? `default (${field.placeholder})` : 'default'}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        {field.description ? <span className="rc-hint">{field.description}</span> : null}
      </div>
    )
  }
  return (
    <Field
      label={field.name}
      value={draft}
      onChange={set}
      mono
      placeholder={field.placeholder}
      multiline={field.kind === 'lines' || field.kind === 'json' ? 2 : undefined}
      issue={shownIssue ?? null}
      hint={field.kind === 'lines' ? `${hint} · one per line` : hint}
    />
  )
}

function ServedList({ optimizers }: { optimizers: readonly ServedOptimizer[] }) {
  const served = useSetup((s) => s.attacker.served)
  if (optimizers.length === 0) return <p className="rc-muted">This server serves no optimizer.</p>
  const picked = optimizers.find((o) => o.name === served.name)
  return (
    <>
      <ul className="rc-list" role="radiogroup" aria-label="Served optimizers">
        {optimizers.map((o) => (
          <li key={o.name}>
            <button
              type="button"
              role="radio"
              aria-checked={o.name === served.name}
              className="rc-pick"
              onClick={() => {
                if (o.name !== served.name) setupActions().setServed({ name: o.name, kwargs: {} })
              }}
            >
              <span>
                <span className="rc-pick__name">{o.name}</span>{' '}
                <span className="rc-tag">
                  {o.ref}
                  {o.version ? ` ${o.version}` : ''}
                </span>
                <br />
                <span className="rc-pick__desc">
                  {o.description || 'no description'} · {o.llm ? `its LLM: ${o.llm.model} (on the server)` : 'no LLM on the server'}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {picked ? (
        <fieldset className="rc-fieldset" aria-label={`${picked.name} keyword arguments`}>
          <legend className="rc-label">Keyword arguments (empty: the server&apos;s default)</legend>
          {kwargFields(picked.kwargs_schema).map((f) => (
            <KwargInput key={f.name} field={f} draft={served.kwargs[f.name] ?? ''} />
          ))}
        </fieldset>
      ) : (
        <p className="rc-hint">Pick the optimizer to attack with.</p>
      )}
    </>
  )
}

/**
 * A superred optimizer served over Optimizer-over-HTTP (`redscope-bridge serve --optimizer ...`): its URL, the
 * server's list, and a form for the chosen one's keyword arguments generated from the schema the server publishes.
 */
export function ServedOptimizerPicker() {
  const served = useSetup((s) => s.attacker.served)
  const token = useSecrets((s) => s.values.optimizerToken)
  // A setup that already names an optimizer lists its server again without a click.
  const [asked, setAsked] = useState<{ url: string; attempt: number } | null>(
    served.name !== '' && served.url.trim() !== '' ? { url: served.url.trim(), attempt: 0 } : null,
  )
  const q = useQuery(optimizerListQuery(asked?.url ?? null, token, asked?.attempt ?? 0))
  return (
    <>
      <Field
        label="Optimizer server"
        value={served.url}
        placeholder="http://127.0.0.1:8801"
        type="url"
        onChange={(url) => setupActions().setServed({ url })}
        hint="superred's own optimizers (PAIR, TAP, Crescendo…) behind `redscope-bridge serve --optimizer MODULE:ATTR`; their LLM and its key stay on that server."
      />
      <Field
        label="Bearer token (optional)"
        value={token}
        type="password"
        onChange={(v) => secretsActions().set('optimizerToken', v)}
        hint="Sent to that server only; never saved in results."
      />
      <button
        type="button"
        className="rc-btn"
        disabled={served.url.trim() === ''}
        onClick={() => setAsked((a) => ({ url: served.url.trim(), attempt: (a?.attempt ?? 0) + 1 }))}
      >
        List optimizers
      </button>
      {asked !== null && q.isPending ? (
        <p className="rc-muted" role="status">
          Asking {asked.url} for its optimizers…
        </p>
      ) : null}
      {q.error ? (
        <p className="rc-error" role="alert">
          Could not list its optimizers: {q.error.message}
        </p>
      ) : null}
      {q.data ? <ServedList optimizers={q.data.optimizers} /> : null}
    </>
  )
}
