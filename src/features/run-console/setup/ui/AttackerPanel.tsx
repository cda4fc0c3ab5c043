import { PAYLOAD_LIBRARY } from '../../../../attackers'
import { derivedAttackerLabel, describeAttackerConfig } from '../../../../core/results'
import { setupAttackerConfig } from '../attackerConfig'
import { plural } from '../../../../lib/plural'
import { Card } from '../../ui/Card'
import { Field } from '../../ui/Field'
import { Segmented } from '../../ui/Segmented'
import { checkNumber, RULES } from '../numbers'
import { setupActions, useSetup } from '../setupStore'
import type { AttackerKind, AttackerSetup } from '../setupTypes'
import { ReplayPicker } from './ReplayPicker'
import { ServedOptimizerPicker } from './ServedOptimizerPicker'

const KINDS: ReadonlyArray<{ value: AttackerKind; label: string }> = [
  { value: 'template', label: 'Template' },
  { value: 'llm', label: 'LLM' },
  { value: 'replay', label: 'Replay' },
  { value: 'human', label: 'Human' },
  { value: 'served', label: 'superred optimizer (served)' },
]
const ON: ReadonlyArray<{ value: AttackerSetup['injectOn']; label: string }> = [
  { value: 'pre', label: 'before calls' },
  { value: 'post', label: 'after calls' },
  { value: 'both', label: 'both' },
]

function Templates() {
  const a = useSetup((s) => s.attacker)
  const on = a.templates.filter((t) => t.on).length
  return (
    <>
      <div className="rc-field rc-field--inline">
        <span className="rc-label">Inject</span>
        <Segmented
          label="Template injects"
          value={a.injectOn}
          options={ON}
          onChange={(injectOn) => setupActions().setAttacker({ injectOn })}
        />
      </div>
      <p className="rc-hint">
        Run <em>k</em> injects the <em>k</em>-th ticked payload at every offered surface; after the last ({on} ticked) it starts again from
        the first, until a success or the max runs per task. Placeholders: <code>{'{instruction}'}</code>, <code>{'{surface}'}</code>,{' '}
        <code>{'{goal}'}</code>, <code>{'{controllable}'}</code>, <code>{'{request}'}</code>.
      </p>
      <ol className="rc-templates" aria-label="Payload templates">
        {a.templates.map((t, i) => (
          <li key={t.id} className={t.on ? undefined : 'rc-templates__off'}>
            <div className="rc-row rc-row--spread">
              <label className="rc-row">
                <input
                  type="checkbox"
                  checked={t.on}
                  aria-label={`Use payload ${t.name}`}
                  onChange={(e) => setupActions().updateTemplate(t.id, { on: e.target.checked })}
                />
                <input
                  className="rc-input rc-input--mono rc-templates__name"
                  aria-label={`Payload ${i + 1} name`}
                  value={t.name}
                  onChange={(e) => setupActions().updateTemplate(t.id, { name: e.target.value })}
                />
              </label>
              <button
                type="button"
                className="rc-btn rc-btn--ghost rc-btn--small"
                aria-label={`Remove payload ${t.name}`}
                onClick={() => setupActions().removeTemplate(t.id)}
              >
                ✕
              </button>
            </div>
            <span className="rc-hint">{PAYLOAD_LIBRARY.find((p) => p.name === t.name)?.description}</span>
            <textarea
              className="rc-input rc-input--mono rc-templates__text"
              rows={payloadRows(t.text)}
              aria-label={`Payload ${t.name}`}
              value={t.text}
              onChange={(e) => setupActions().updateTemplate(t.id, { text: e.target.value })}
            />
          </li>
        ))}
      </ol>
      <div className="rc-row">
        <button type="button" className="rc-btn rc-btn--small" onClick={() => setupActions().addTemplate()}>
          + Payload
        </button>
        <button
          type="button"
          className="rc-btn rc-btn--small rc-btn--ghost"
          onClick={() => setupActions().setAttacker({ templates: a.templates.map((t) => ({ ...t, on: false })) })}
        >
          Untick all
        </button>
      </div>
    </>
  )
}

/**
 * The label this attacker's experiments get: derived from its whole configuration (as the CLI's without
 * --attacker-label), so another payload, model or recorded run never resumes these results, and the same
 * attacker run from the CLI lands in the same folder.
 */
function AttackerLabel() {
  const attacker = useSetup((s) => s.attacker)
  const threat = useSetup((s) => s.threat)
  const config = setupAttackerConfig({ attacker, threat })
  if (config === null) {
    return (
      <p className="rc-hint" data-testid="attacker-label">
        {attacker.kind === 'replay'
          ? 'Its results are labelled from the recorded run (replay-… with a hash of it) when the run starts.'
          : 'Its results get a label once the attacker is complete.'}
      </p>
    )
  }
  return (
    <p className="rc-hint" data-testid="attacker-label">
      Results go to experiments labelled <code>{derivedAttackerLabel(config)}</code>: {describeAttackerConfig(config)}. The label changes
      with any of it, so another attacker never resumes these results.
    </p>
  )
}

/**
 * Rows enough for the whole payload, its long lines counted as wrapped (about 70 characters a row), up to 20; the
 * box then scrolls. Where the browser sizes a field to its content (field-sizing, run.css), that wins.
 */
function payloadRows(text: string): number {
  const rows = text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 70)), 0)
  return Math.min(20, Math.max(2, rows))
}

export function AttackerPanel() {
  const a = useSetup((s) => s.attacker)
  const summary =
    a.kind === 'template'
      ? `template, ${plural(a.templates.filter((t) => t.on).length, 'payload')}`
      : a.kind === 'replay'
        ? `replay${a.replay ? ` run ${a.replay.run}` : ''}`
        : a.kind === 'served'
          ? `superred ${a.served.name || 'optimizer'} (served)`
          : a.kind
  return (
    <Card step={3} title="Attacker" summary={summary}>
      <div className="rc-field">
        <Segmented label="Attacker" value={a.kind} options={KINDS} onChange={(kind) => setupActions().setAttacker({ kind })} />
      </div>
      {a.kind === 'template' ? <Templates /> : null}
      {a.kind === 'llm' ? (
        <>
          <div className="rc-field rc-field--inline">
            <span className="rc-label">Inject</span>
            <Segmented
              label="LLM injects"
              value={a.llmInjectOn}
              options={ON}
              onChange={(llmInjectOn) => setupActions().setAttacker({ llmInjectOn })}
            />
          </div>
          <Field
            label="Max turns per run"
            value={a.llmMaxTurns}
            issue={checkNumber(a.llmMaxTurns, RULES.maxTurns).error}
            hint="then the attacker declines, which ends a conversation that asks again after every answer"
            onChange={(llmMaxTurns) => setupActions().setAttacker({ llmMaxTurns })}
          />
          <p className="rc-hint">
            A model writes each injection from the goal, what it may see and the feedback of earlier runs. Its endpoint, model, key and
            prices are under Budget &amp; models.
          </p>
        </>
      ) : null}
      {a.kind === 'replay' ? <ReplayPicker /> : null}
      {a.kind === 'served' ? <ServedOptimizerPicker /> : null}
      {a.kind === 'human' ? (
        <p className="rc-hint">
          You are the attacker: at each surface you may write to, the page shows exactly what the attacker sees (the filtered view so far)
          and asks for the text to inject, or a decline. Tasks run one at a time. Ideal for live demos.
        </p>
      ) : null}
      <AttackerLabel />
    </Card>
  )
}
