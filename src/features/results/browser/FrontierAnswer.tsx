/**
 * A frontier search's answer as the viewer shows it, from its frontier.json
 * (a folder `redscope frontier --out` wrote, or a search kept by this
 * browser): how far it got, the forest painted with the minimal winning
 * threat models, and the minimal wins and maximal losses in words
 * (src/core/frontier/answer.ts), each linked to the runs that decided it and
 * paintable alone on the forest.
 */
import { useMemo, useState } from 'react'
import { Link } from 'wouter'
import { answerWords, type AnswerPoint, type FrontierFile } from '../../../core/frontier'
import { FrontierForest } from '../../../components/sweep/FrontierForest'

function Point({ p, href, show }: { p: AnswerPoint; href: (dir: string) => string; show: (p: AnswerPoint) => void }) {
  return (
    <li data-testid={p.verdict === 'wins' ? 'frontier-win' : 'frontier-loss'}>
      <code>#{p.index}</code> {p.words} {p.verdict}
      {p.runs ? <span className="results-muted">: {p.runs}</span> : null}
      {p.dirs.length > 0 ? (
        <>
          {' '}
          · <Link href={href(p.dirs[0])}>{p.dirs.length > 1 ? `the first of its ${p.dirs.length} runs` : 'the run that decided it'}</Link>
        </>
      ) : null}{' '}
      <button type="button" className="button--small" aria-label={`Show #${p.index} on the forest`} onClick={() => show(p)}>
        show
      </button>
    </li>
  )
}

export function FrontierAnswer({
  file,
  source,
  href,
}: {
  file: FrontierFile
  /** Where it comes from, said under the painting ("frontier.json of results/x"). */
  source: string
  href: (dir: string) => string
}) {
  const a = useMemo(() => answerWords(file), [file])
  const [shown, setShown] = useState<AnswerPoint | null>(null)
  const forest = file.forest
  const s = file.search
  return (
    <section aria-label="Frontier search" className="frontier-answer">
      <h2>The weakest winning attackers</h2>
      <p className="results-muted">
        Target <code>{s.target || 'unnamed'}</code> · claim <code>{s.claim}</code> · attacker <code>{s.attacker}</code>
      </p>
      <p data-testid="frontier-progress">{a.progress}</p>
      {file.contradictions.length > 0 ? (
        <p className="results-note">{file.contradictions.length} contradiction(s): a wider threat model lost where a narrower one won.</p>
      ) : null}
      {forest === null ? (
        <p className="results-note">
          This frontier.json names no forest (written by an older redscope): the answer is listed, not painted.
        </p>
      ) : (
        <>
          <FrontierForest forest={forest} wins={a.minimalWins} alone={shown} source={source} />
          {shown ? (
            <p className="results-muted" data-testid="frontier-shown">
              Painted: #{shown.index}, {shown.words}.{' '}
              <button type="button" className="button--small" onClick={() => setShown(null)}>
                Paint the minimal winners
              </button>
            </p>
          ) : null}
        </>
      )}
      {a.minimalWins.length > 0 ? (
        <>
          <h3>
            {a.complete ? 'The weakest attackers that win' : 'Minimal wins so far'} ({a.minimalWins.length})
          </h3>
          <ul aria-label="Minimal winning threat models">
            {a.minimalWins.map((p) => (
              <Point key={p.index} p={p} href={href} show={setShown} />
            ))}
          </ul>
        </>
      ) : (
        <p data-testid="frontier-none">{a.none}</p>
      )}
      {a.maximalLosses.length > 0 ? (
        <>
          <h3>The widest attackers that did not win, in the runs made ({a.maximalLosses.length})</h3>
          <ul aria-label="Maximal losing threat models">
            {a.maximalLosses.map((p) => (
              <Point key={p.index} p={p} href={href} show={setShown} />
            ))}
          </ul>
        </>
      ) : null}
      <p className="results-muted">{file.assumption}</p>
    </section>
  )
}
