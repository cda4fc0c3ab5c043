import type { Forest } from '../../../../core/tags'
import { Field } from '../../ui/Field'
import { checkGeneric, genericDraftFor } from '../genericDraft'
import { secretsActions, useSecrets } from '../secretsStore'
import { setupActions, useSetup } from '../setupStore'
import type { GenericDraft } from '../setupTypes'

const METHODS = ['POST', 'PUT', 'PATCH', 'GET'] as const
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$/i

function TagSelect({
  value,
  forest,
  label,
  onChange,
  invalid,
}: {
  value: string
  forest: Forest
  label: string
  onChange: (v: string) => void
  invalid: boolean
}) {
  return (
    <select
      className="rc-input"
      aria-label={label}
      value={value}
      aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value)}
    >
      {forest.tags.some((t) => t.name === value) ? null : <option value={value}>{value || 'pick a tag…'}</option>}
      {forest.tags.map((t) => (
        <option key={t.name} value={t.name}>
          {t.name}
        </option>
      ))}
    </select>
  )
}

/** The generic HTTP endpoint: a request template, fields and outputs each tagged with a tag of the designer's forest. */
export function GenericTargetForm({ forest, forestError }: { forest: Forest; forestError: string | null }) {
  const draft = useSetup((s) => s.target.generic)
  const secret = useSecrets((s) => s.values.genericSecret)
  if (forestError)
    return (
      <p className="rc-error">
        The designer’s forest is not valid ({forestError}): fix it first, since each field is tagged with one of its tags.
      </p>
    )
  if (draft === null) {
    return (
      <div>
        <p className="rc-hint">
          Describe any JSON-over-HTTP endpoint: fields fill placeholders like <code>{'{{user_message}}'}</code> in the body; outputs are
          read back by JSONPath. Each is tagged with a tag of the designer’s forest.
        </p>
        <button type="button" className="rc-btn" onClick={() => setupActions().setGeneric(genericDraftFor(forest))}>
          Start from a chat-completions example
        </button>
      </div>
    )
  }
  const { issues } = checkGeneric(draft, forest)
  const set = (patch: Partial<GenericDraft>) => setupActions().setGeneric({ ...draft, ...patch })
  const setField = (i: number, patch: Partial<GenericDraft['fields'][number]>) =>
    set({ fields: draft.fields.map((f, k) => (k === i ? { ...f, ...patch } : f)) })
  const setOutput = (i: number, patch: Partial<GenericDraft['outputs'][number]>) =>
    set({ outputs: draft.outputs.map((o, k) => (k === i ? { ...o, ...patch } : o)) })
  const issue = (path: string) => issues.get(path) ?? null
  return (
    <div className="rc-generic" aria-label="HTTP endpoint">
      <div className="rc-row" style={{ alignItems: 'flex-start' }}>
        <div className="rc-field" style={{ width: 96 }}>
          <label className="rc-label" htmlFor="rc-g-method">
            Method
          </label>
          <select
            id="rc-g-method"
            className="rc-input"
            value={draft.method}
            onChange={(e) => set({ method: e.target.value as GenericDraft['method'] })}
          >
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </div>
        <Field className="rc-grow" label="URL" value={draft.url} type="url" issue={issue('url')} onChange={(url) => set({ url })} />
      </div>
      <Field
        label="Name (the target in results folder names)"
        value={draft.name}
        issue={issue('name')}
        onChange={(name) => set({ name })}
      />
      <span className="rc-label">Headers</span>
      {draft.headers.map((h, i) => (
        <div key={i} className="rc-row rc-kv">
          <input
            className="rc-input"
            aria-label={`Header ${i + 1} name`}
            value={h.name}
            aria-invalid={issue(`headers.${i}.name`) ? true : undefined}
            onChange={(e) => set({ headers: draft.headers.map((x, k) => (k === i ? { ...x, name: e.target.value } : x)) })}
          />
          <input
            className="rc-input"
            aria-label={`Header ${i + 1} value`}
            value={h.value}
            onChange={(e) => set({ headers: draft.headers.map((x, k) => (k === i ? { ...x, value: e.target.value } : x)) })}
          />
          <button
            type="button"
            className="rc-btn rc-btn--ghost rc-btn--small"
            aria-label={`Remove header ${i + 1}`}
            onClick={() => set({ headers: draft.headers.filter((_, k) => k !== i) })}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="rc-btn rc-btn--small" onClick={() => set({ headers: [...draft.headers, { name: '', value: '' }] })}>
        + Header
      </button>
      {draft.headers.some((h) => CREDENTIAL_HEADER.test(h.name)) ? (
        <p className="rc-warn rc-small" role="alert">
          Headers are saved with the setup in this browser: put a credential in the secret header below instead, which is kept like an API
          key.
        </p>
      ) : null}
      <div className="rc-grid2" style={{ marginTop: 10 }}>
        <Field label="Secret header" value={draft.authHeader} onChange={(authHeader) => set({ authHeader })} hint="e.g. Authorization" />
        <Field
          label="Its value"
          value={secret}
          type="password"
          onChange={(v) => secretsActions().set('genericSecret', v)}
          hint="e.g. Bearer sk-…; kept like API keys"
        />
      </div>
      <Field
        label="JSON body template"
        value={draft.bodyTemplate}
        multiline={7}
        mono
        issue={issue('bodyTemplate')}
        onChange={(bodyTemplate) => set({ bodyTemplate })}
        hint='Placeholders go inside strings: "{{user_message}}"; values are JSON-escaped.'
      />
      <span className="rc-label">Fields (placeholders)</span>
      <ul className="rc-gitems" aria-label="Fields">
        {draft.fields.map((f, i) => (
          <li key={i} className="rc-gitem">
            <input
              className="rc-input rc-input--mono"
              aria-label={`Field ${i + 1} name`}
              value={f.name}
              aria-invalid={issue(`fields.${i}.name`) ? true : undefined}
              title={issue(`fields.${i}.name`) ?? ''}
              onChange={(e) => setField(i, { name: e.target.value })}
            />
            <select
              className="rc-input"
              aria-label={`Field ${i + 1} role`}
              value={f.role}
              onChange={(e) => setField(i, { role: e.target.value as 'controllable' | 'config' })}
            >
              <option value="controllable">set by the attacker</option>
              <option value="config">set by the claim’s config</option>
            </select>
            <button
              type="button"
              className="rc-btn rc-btn--ghost rc-btn--small"
              aria-label={`Remove field ${i + 1}`}
              onClick={() => set({ fields: draft.fields.filter((_, k) => k !== i) })}
            >
              ✕
            </button>
            <TagSelect
              forest={forest}
              value={f.securityDomain}
              label={`Field ${i + 1} tag`}
              invalid={!!issue(`fields.${i}.securityDomain`)}
              onChange={(v) => setField(i, { securityDomain: v })}
            />
            <input
              className="rc-input"
              aria-label={`Field ${i + 1} default`}
              placeholder="default value"
              value={f.default}
              onChange={(e) => setField(i, { default: e.target.value })}
            />
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="rc-btn rc-btn--small"
        onClick={() =>
          set({
            fields: [
              ...draft.fields,
              {
                name: `field${draft.fields.length + 1}`,
                role: 'controllable',
                securityDomain: forest.tags[0]?.name ?? '',
                description: '',
                default: '',
              },
            ],
          })
        }
      >
        + Field
      </button>
      <span className="rc-label" style={{ marginTop: 10 }}>
        Outputs (read from the JSON answer)
      </span>
      <ul className="rc-gitems" aria-label="Outputs">
        {draft.outputs.map((o, i) => (
          <li key={i} className="rc-gitem">
            <input
              className="rc-input rc-input--mono"
              aria-label={`Output ${i + 1} name`}
              value={o.name}
              aria-invalid={issue(`outputs.${i}.name`) ? true : undefined}
              onChange={(e) => setOutput(i, { name: e.target.value })}
            />
            <input
              className="rc-input rc-input--mono"
              aria-label={`Output ${i + 1} JSONPath`}
              value={o.path}
              aria-invalid={issue(`outputs.${i}.path`) ? true : undefined}
              onChange={(e) => setOutput(i, { path: e.target.value })}
            />
            <button
              type="button"
              className="rc-btn rc-btn--ghost rc-btn--small"
              aria-label={`Remove output ${i + 1}`}
              onClick={() => set({ outputs: draft.outputs.filter((_, k) => k !== i) })}
            >
              ✕
            </button>
            <TagSelect
              forest={forest}
              value={o.securityDomain}
              label={`Output ${i + 1} tag`}
              invalid={!!issue(`outputs.${i}.securityDomain`)}
              onChange={(v) => setOutput(i, { securityDomain: v })}
            />
            <label className="rc-row rc-small">
              <input
                type="checkbox"
                aria-label={`Output ${i + 1} rewritable`}
                checked={o.controllable}
                onChange={(e) => setOutput(i, { controllable: e.target.checked })}
              />{' '}
              the attacker may rewrite it
            </label>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="rc-btn rc-btn--small"
        onClick={() =>
          set({
            outputs: [
              ...draft.outputs,
              {
                name: `output${draft.outputs.length + 1}`,
                path: '$',
                securityDomain: forest.tags[0]?.name ?? '',
                description: '',
                controllable: false,
              },
            ],
          })
        }
      >
        + Output
      </button>
      <div className="rc-grid2" style={{ marginTop: 10 }}>
        <Field label="Retries on 429" value={draft.maxRetries} issue={issue('maxRetries')} onChange={(maxRetries) => set({ maxRetries })} />
        <Field
          label="Longest Retry-After wait (s)"
          value={draft.maxRetryWaitS}
          issue={issue('maxRetryWaitS')}
          onChange={(maxRetryWaitS) => set({ maxRetryWaitS })}
        />
      </div>
      {[...issues]
        .filter(([k]) => /^(fields|outputs|headers)\./.test(k) || k === '' || k === 'outputs')
        .map(([k, m]) => (
          <p key={k} className="rc-issue" role="alert">
            {k || 'endpoint'}: {m}
          </p>
        ))}
      {issues.size === 0 ? <p className="rc-ok rc-small">✓ The endpoint description is complete.</p> : null}
      <button type="button" className="rc-btn rc-btn--small rc-btn--ghost" onClick={() => setupActions().setGeneric(null)}>
        Start over
      </button>
    </div>
  )
}
