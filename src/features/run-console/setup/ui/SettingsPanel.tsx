import { needsJudge } from '../../../../claims'
import { DEFAULT_INCLUDE_FEEDBACK, DEFAULT_MAX_RUNS_PER_TASK } from '../../../../core/defaults'
import { Card } from '../../ui/Card'
import { Field } from '../../ui/Field'
import { checkClaim } from '../claimDraft'
import { checkNumber, RULES } from '../numbers'
import { secretsActions, useSecrets, type SecretName } from '../secretsStore'
import { setupActions, useSetup } from '../setupStore'
import type { LlmEndpoint } from '../setupTypes'

function Endpoint({ which, secret, title }: { which: 'attackerLlm' | 'judgeLlm'; secret: SecretName; title: string }) {
  const e: LlmEndpoint = useSetup((s) => s.threat[which])
  const key = useSecrets((s) => s.values[secret])
  const set = (patch: Partial<LlmEndpoint>) => setupActions().setLlm(which, patch)
  return (
    <fieldset className="rc-fieldset">
      <legend className="rc-label">{title}</legend>
      <div className="rc-grid2">
        <Field label="Base URL (OpenAI-compatible)" value={e.baseURL} type="url" onChange={(baseURL) => set({ baseURL })} />
        <Field label="Model" value={e.model} onChange={(model) => set({ model })} />
      </div>
      <Field label="API key" value={key} type="password" onChange={(v) => secretsActions().set(secret, v)} />
      <div className="rc-grid2">
        <Field
          label="Input $ / 1M tokens"
          value={e.inputPrice}
          placeholder="OpenAI list price, else unpriced"
          issue={checkNumber(e.inputPrice, RULES.price).error}
          onChange={(inputPrice) => set({ inputPrice })}
        />
        <Field
          label="Output $ / 1M tokens"
          value={e.outputPrice}
          placeholder="OpenAI list price, else unpriced"
          issue={checkNumber(e.outputPrice, RULES.price).error}
          onChange={(outputPrice) => set({ outputPrice })}
        />
      </div>
      <p className="rc-hint">
        Blank: OpenAI’s list price, only on api.openai.com. Any other endpoint (a local model, even one named gpt-4o-mini) is unpriced: its
        cost shows “unpriced” and a cost cap cannot be enforced on it.
      </p>
    </fieldset>
  )
}

/**
 * The browser and the CLI share their defaults (src/core/defaults.ts): a number other than the default is another
 * measurement, in another results folder, and the form says so.
 */
function maxRunsHint(typed: string): string {
  const n = Number(typed.trim())
  return n === DEFAULT_MAX_RUNS_PER_TASK
    ? `the CLI’s and superred’s default (${DEFAULT_MAX_RUNS_PER_TASK})`
    : `not the default (${DEFAULT_MAX_RUNS_PER_TASK}, as the CLI and superred): results go to other folders than a default run’s`
}

export function SettingsPanel() {
  const t = useSetup((s) => s.threat)
  const attacker = useSetup((s) => s.attacker.kind)
  const claim = useSetup((s) => s.claim)
  const keep = useSecrets((s) => s.keep)
  const judged = (() => {
    const f = checkClaim(claim).file
    return f !== null && needsJudge(f)
  })()
  const num = (key: 'maxRuns' | 'costCap' | 'timeCap', rule: (typeof RULES)[keyof typeof RULES], label: string, hint?: string) => (
    <Field
      label={label}
      value={t[key]}
      issue={checkNumber(t[key], rule).error}
      hint={hint}
      onChange={(v) => setupActions().setThreat({ [key]: v })}
    />
  )
  return (
    <Card
      step={4}
      title="Budget & models"
      summary={`${t.maxRuns} ${t.maxRuns.trim() === '1' ? 'run' : 'runs'}/task${t.costCap ? `, $${t.costCap} cap` : ''}${t.timeCap ? `, ${t.timeCap} s` : ''}`}
    >
      <div className="rc-grid3">
        {num('maxRuns', RULES.maxRuns, 'Max runs per task', maxRunsHint(t.maxRuns))}
        {num('costCap', RULES.costCap, 'Cost cap per task ($)', 'blank: none')}
        {num('timeCap', RULES.timeCap, 'Time cap per task (s)', 'blank: none')}
      </div>
      <label className="rc-row rc-check">
        <input
          type="checkbox"
          checked={t.includeFeedback}
          onChange={(e) => setupActions().setThreat({ includeFeedback: e.target.checked })}
        />{' '}
        Include feedback (the attacker sees each run’s scope-filtered evaluation)
      </label>
      {t.includeFeedback !== DEFAULT_INCLUDE_FEEDBACK ? (
        <p className="rc-hint" data-testid="feedback-differs">
          Feedback off is not the CLI’s default (it is on unless <code>--no-feedback</code>): these results land in other folders than a CLI
          run’s with the defaults.
        </p>
      ) : null}
      <label className="rc-row rc-check">
        <input type="checkbox" checked={t.countEchoes} onChange={(e) => setupActions().setThreat({ countEchoes: e.target.checked })} />{' '}
        Count echoes as breaches (a success whose evidence is text the attacker injected itself in that run; off: marked “echoed” and judged
        a failure)
      </label>
      <label className="rc-row rc-check">
        <input type="checkbox" checked={t.overwrite} onChange={(e) => setupActions().setThreat({ overwrite: e.target.checked })} /> Rerun
        finished tasks (otherwise a threat model run before resumes, as superred does)
      </label>
      {attacker === 'llm' ? <Endpoint which="attackerLlm" secret="attackerKey" title="Attacker model" /> : null}
      {judged ? (
        <>
          <label className="rc-row rc-check">
            <input type="checkbox" checked={t.judgeSame} onChange={(e) => setupActions().setThreat({ judgeSame: e.target.checked })} /> The
            judge uses the attacker’s model settings
          </label>
          {t.judgeSame && attacker !== 'llm' ? <Endpoint which="attackerLlm" secret="attackerKey" title="Judge model" /> : null}
          {!t.judgeSame ? <Endpoint which="judgeLlm" secret="judgeKey" title="Judge model" /> : null}
        </>
      ) : null}
      {attacker === 'served' ? (
        <p className="rc-hint">
          The served optimizer calls its server’s own model, with the server’s key; its usage comes back with each answer, and the cost cap
          above is enforced there.
        </p>
      ) : null}
      {attacker !== 'llm' && attacker !== 'served' && !judged ? (
        <p className="rc-hint">No model needed: this attacker and claim use no LLM.</p>
      ) : null}
      <div className="rc-keys">
        <label className="rc-row rc-check">
          <input type="checkbox" checked={keep} onChange={(e) => secretsActions().setKeep(e.target.checked)} /> Keep keys on this device
        </label>
        <span className="rc-hint">
          {keep
            ? 'Keys are in this browser’s local storage until you forget them.'
            : 'Keys stay in this tab only and are gone when it closes.'}{' '}
          They never go into results, exports, links or logs.
        </span>
        <button type="button" className="rc-btn rc-btn--small" onClick={() => secretsActions().forget()}>
          Forget keys
        </button>
      </div>
    </Card>
  )
}
