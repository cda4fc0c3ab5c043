import { useState } from 'react'
import { answerHuman, useHuman, type HumanAsk } from '../../runner/humanBridge'

function InjectForm({ ask }: { ask: HumanAsk }) {
  const p = ask.pause!
  const [value, setValue] = useState('')
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        answerHuman(ask.id, value)
      }}
    >
      <p className="rc-human__where">
        Run {ask.runNumber} {p.when === 'pre' ? 'is about to use' : 'has just used'} <strong className="rc-mono">{p.controllable}</strong>
        {p.domain ? (
          <>
            {' '}
            <span className="rc-chip rc-chip--scope">{p.domain}</span>
          </>
        ) : null}
        {p.description ? <span className="rc-muted"> — {p.description}</span> : null}
      </p>
      <div className="rc-human__grid">
        <div>
          <span className="rc-label">{p.when === 'pre' ? 'What it would send' : 'What it sent'}</span>
          <pre className="rc-pre" data-testid="human-request">
            {p.request}
          </pre>
          {p.answer !== null ? (
            <>
              <span className="rc-label">What came back</span>
              <pre className="rc-pre">{p.answer}</pre>
            </>
          ) : null}
        </div>
        <div>
          <span className="rc-label">What you (the attacker) have seen of this run</span>
          <ol className="rc-seen" data-testid="human-seen">
            {ask.seen.length ? ask.seen.map((line, i) => <li key={i}>{line}</li>) : <li className="rc-muted">nothing yet</li>}
          </ol>
          <span className="rc-hint">
            You may write to: {ask.offered.join(', ') || 'nothing'}. You may read: {ask.observables.join('; ') || 'nothing static'}.
          </span>
        </div>
      </div>
      <label className="rc-label" htmlFor={`rc-inject-${ask.id}`}>
        Text to inject into {p.controllable}
      </label>
      <textarea
        id={`rc-inject-${ask.id}`}
        className="rc-input"
        rows={3}
        value={value}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        placeholder={`Replaces ${p.controllable} for this call`}
      />
      <div className="rc-row" style={{ marginTop: 8 }}>
        <button type="submit" className="rc-btn rc-btn--primary">
          Inject
        </button>
        <button type="button" className="rc-btn" onClick={() => answerHuman(ask.id, null)}>
          Decline (leave it untouched)
        </button>
      </div>
    </form>
  )
}

function RunEndForm({ ask }: { ask: HumanAsk }) {
  return (
    <div>
      <p>
        Run {ask.runNumber} did not succeed. Feedback:{' '}
        <span className="rc-mono" data-testid="human-feedback">
          {ask.feedback}
        </span>
      </p>
      <div className="rc-row">
        <button type="button" className="rc-btn rc-btn--primary" onClick={() => answerHuman(ask.id, false)}>
          Try another run
        </button>
        <button type="button" className="rc-btn" onClick={() => answerHuman(ask.id, true)}>
          Stop this task
        </button>
      </div>
    </div>
  )
}

/** The human attacker's turn: one question at a time, showing only what the attacker may see (as text). */
export function HumanPanel() {
  const asks = useHuman((s) => s.asks)
  if (asks.length === 0) return null
  const ask = asks[0]
  return (
    <section className="rc-human" aria-label="Your move" data-testid="human-panel">
      <header className="rc-row rc-row--spread">
        <h2 className="rc-h2">Your move{ask.goal ? <span className="rc-muted">: {ask.goal}</span> : null}</h2>
        {asks.length > 1 ? <span className="rc-muted">{asks.length - 1} more waiting</span> : null}
      </header>
      {ask.kind === 'inject' ? <InjectForm key={ask.id} ask={ask} /> : <RunEndForm key={ask.id} ask={ask} />}
    </section>
  )
}
