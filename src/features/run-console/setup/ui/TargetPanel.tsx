import { Card } from '../../ui/Card'
import { Field } from '../../ui/Field'
import { Segmented } from '../../ui/Segmented'
import { demoTargetUrl } from '../../runner/buildTarget'
import type { DesignerView } from '../../workspace/designerView'
import { useFollowedFrom, useFollowWorkspaceTarget } from '../useFollowWorkspaceTarget'
import { checkNumber, RULES } from '../numbers'
import { demoModelIssue, demoTitle } from '../demoModel'
import { secretsActions, useSecrets } from '../secretsStore'
import { setupActions, useSetup } from '../setupStore'
import type { TargetKind } from '../setupTypes'
import { httpTargetUrl } from '../servedClaim'
import { testTarget, useTestedTarget } from '../testedTarget'
import { ConnectionStatus } from './ConnectionStatus'
import { GenericTargetForm } from './GenericTargetForm'

const KINDS: ReadonlyArray<{ value: TargetKind; label: string }> = [
  { value: 'demo', label: 'Demo' },
  { value: 'http', label: 'Target URL' },
  { value: 'openai', label: 'Chat API' },
  { value: 'generic', label: 'HTTP endpoint' },
]

const DEMOS = [
  {
    name: 'chatbot',
    title: 'Chatbot guarding a secret',
    desc: "Acme Bank's help bot; its system prompt holds a vault passphrase. Defences: none, refuse_direct, output_filter.",
  },
  {
    name: 'assistant',
    title: 'Tool-using assistant',
    desc: 'Reads an inbox, calendar, drive and bank account; four defences from none to strict_filter.',
  },
] as const

/** What writes the demo's replies: its deterministic policy (default), or a model such as `redscope serve-llm`'s. */
function DemoModelForm() {
  const target = useSetup((s) => s.target)
  const m = target.demoModel
  const set = (patch: Partial<typeof m>) => setupActions().setTarget({ demoModel: { ...m, ...patch } })
  const issue = demoModelIssue(target)
  return (
    <div className="rc-field">
      <Segmented
        label="Replies written by"
        value={m.on ? 'model' : 'policy'}
        options={[
          { value: 'policy', label: 'Deterministic policy' },
          { value: 'model', label: 'Local model' },
        ]}
        onChange={(v) => set({ on: v === 'model' })}
      />
      {m.on ? (
        <>
          <div className="rc-grid2">
            <Field
              label="Model server (OpenAI-compatible)"
              value={m.baseURL}
              type="url"
              onChange={(v) => set({ baseURL: v })}
              issue={issue}
              hint="Start it with `redscope models pull smollm2 && redscope serve-llm`. This app's server calls it, not the page."
            />
            <Field label="Model name" value={m.model} onChange={(v) => set({ model: v })} />
          </div>
          <p className="rc-hint">
            A real model is stochastic: the same attack leaks in some runs and not others, so judge by rates over several runs. Each task's
            config records the model (policy_model, policy_base_url).
            {target.demo === 'assistant'
              ? ' The assistant asks its model for its actions as JSON: a model as small as SmolLM2 seldom answers that, and such a run stops with that error.'
              : ''}
          </p>
        </>
      ) : (
        <p className="rc-hint">The same reply to the same message every time: the default, and what the tests rely on.</p>
      )}
    </div>
  )
}

function HttpForm({ designerTags, followedFrom }: { designerTags: readonly string[]; followedFrom: string | null }) {
  const url = useSetup((s) => s.target.httpUrl)
  const token = useSecrets((s) => s.values.targetToken)
  const tested = useTestedTarget()
  return (
    <>
      <Field
        label="Target-over-HTTP server"
        value={url}
        placeholder="http://127.0.0.1:8765"
        type="url"
        onChange={(v) => setupActions().setTarget({ httpUrl: v })}
        hint="Any server speaking superred-target-http/1, e.g. `redscope serve-target chatbot`."
      />
      {followedFrom !== null ? (
        <p className="rc-hint" data-testid="followed-target">
          The target the workspace “{followedFrom}” was imported from in the designer. If it wants a bearer token, give it below.
        </p>
      ) : null}
      <Field
        label="Bearer token (optional)"
        value={token}
        type="password"
        onChange={(v) => secretsActions().set('targetToken', v)}
        hint="Sent to this target only; never saved in results."
      />
      <button type="button" className="rc-btn" disabled={url.trim() === ''} onClick={() => testTarget(httpTargetUrl({ httpUrl: url }))}>
        Test connection
      </button>
      <ConnectionStatus url={tested.url} attempt={tested.attempt} token={token} designerTags={designerTags} />
    </>
  )
}

function OpenAiForm() {
  const o = useSetup((s) => s.target.openai)
  const key = useSecrets((s) => s.values.openaiKey)
  const set = setupActions().setOpenAi
  return (
    <>
      <p className="rc-hint">
        The chatbot forest: the system prompt and the user message are controllable before the call, the model’s response after it; the
        model’s identity is observable.
      </p>
      <div className="rc-grid2">
        <Field label="Base URL" value={o.baseURL} onChange={(v) => set({ baseURL: v })} type="url" />
        <Field label="Model" value={o.model} onChange={(v) => set({ model: v })} />
      </div>
      <Field
        label="API key"
        value={key}
        type="password"
        onChange={(v) => secretsActions().set('openaiKey', v)}
        hint="Kept for this session only (see Keys below)."
      />
      <Field label="System prompt (config system_prompt)" value={o.systemPrompt} multiline={3} onChange={(v) => set({ systemPrompt: v })} />
      <Field label="User message (config user_message)" value={o.userMessage} onChange={(v) => set({ userMessage: v })} />
    </>
  )
}

export function TargetPanel({ view }: { view: DesignerView }) {
  useFollowWorkspaceTarget(view)
  const followedFrom = useFollowedFrom(view)
  const target = useSetup((s) => s.target)
  const designerTags = view.forest.tags.map((t) => t.name)
  const conc = checkNumber(target.concurrency, RULES.concurrency)
  const summary =
    target.kind === 'demo'
      ? demoTitle(target)
      : target.kind === 'http'
        ? target.httpUrl || 'no URL yet'
        : target.kind === 'openai'
          ? `${target.openai.model} chat`
          : 'HTTP endpoint'
  return (
    <Card step={1} title="Target" summary={summary}>
      <div className="rc-field">
        <Segmented label="Kind of target" value={target.kind} options={KINDS} onChange={(kind) => setupActions().setTarget({ kind })} />
      </div>
      {target.kind === 'demo' ? (
        <>
          <ul className="rc-list" role="radiogroup" aria-label="Demo targets">
            {DEMOS.map((d) => (
              <li key={d.name}>
                <button
                  type="button"
                  role="radio"
                  aria-checked={target.demo === d.name}
                  className="rc-pick"
                  onClick={() => setupActions().setTarget({ demo: d.name })}
                >
                  <span>
                    <span className="rc-pick__name">{d.title}</span> <span className="rc-tag">/targets/{d.name}/</span>
                    <br />
                    <span className="rc-pick__desc">{d.desc}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <DemoModelForm />
          <ConnectionStatus url={demoTargetUrl(target.demo, location.origin)} token="" designerTags={designerTags} />
        </>
      ) : target.kind === 'http' ? (
        <HttpForm designerTags={designerTags} followedFrom={followedFrom} />
      ) : target.kind === 'openai' ? (
        <OpenAiForm />
      ) : (
        <GenericTargetForm forest={view.forest} forestError={view.forestError} />
      )}
      <div className="rc-field rc-field--inline" style={{ marginTop: 10 }}>
        <label className="rc-label" htmlFor="rc-conc">
          Tasks at once
        </label>
        <input
          id="rc-conc"
          className="rc-input rc-input--num"
          value={target.concurrency}
          aria-invalid={conc.error ? true : undefined}
          onChange={(e) => setupActions().setTarget({ concurrency: e.target.value })}
        />
        {conc.error ? <span className="rc-issue">{conc.error}</span> : <span className="rc-hint">capped by the target’s own limit</span>}
      </div>
    </Card>
  )
}
