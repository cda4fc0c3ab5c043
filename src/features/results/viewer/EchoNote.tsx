import type { RunEchoJson } from './runInfo'

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text)

/**
 * An echoed run, said plainly beside its verdict: what the check matched, the injection that already held it,
 * whether it counted, and the claim's own verdict before the echo rule. Text only.
 */
export function EchoNote({ echo }: { echo: RunEchoJson }) {
  return (
    <section className="echo-note" aria-label="Echo" data-testid="echo-note">
      <p>
        <span className="verdict verdict--echo">
          {echo.counted ? 'echoed · counted as a success' : 'echoed · not counted as a success'}
        </span>{' '}
        What the check matched ({echo.evidence.texts.map((t) => `“${clip(t, 80)}”`).join(', ')}, {echo.evidence.where}) is in the attacker’s
        own injection of this run, so the target may only have repeated it.{' '}
        {echo.counted ? 'Echoes were counted as successes for this run.' : 'Not counted as a breach (count echoes to count it).'}
      </p>
      <ul>
        {/* The whole injection, as text: a long one wraps and scrolls in its box (results.css), never cut. */}
        {echo.injections.map((i, k) => (
          <li key={k}>
            Injected into <code>{i.controllable}</code>:{' '}
            <q className="echo-note__value" data-testid="echo-injection">
              {i.value}
            </q>
          </li>
        ))}
      </ul>
      <p className="results-note">
        The claim’s own verdict: {echo.claimed.success ? 'success' : 'no success'}, score {echo.claimed.primary_score.value}
        {echo.claimed.rationale ? `: ${clip(echo.claimed.rationale, 300)}` : ''}
      </p>
    </section>
  )
}
