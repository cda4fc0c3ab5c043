import { firstLine } from '../batchReporter'
import type { ScoreLine, TaskEvaluation } from '../liveTypes'

const value = (s: ScoreLine) => (Number.isInteger(s.value) ? String(s.value) : s.value.toFixed(3))

/**
 * A finished task's best evaluation as the evaluator returned it (for a served task: the server's own
 * EvaluationResult): the primary score, each sub-score with the tag it pertains to, the rationale's first line.
 * All text: a rationale quotes what the target said, which may be anything.
 */
export function EvaluationLine({ index, evaluation }: { index: number; evaluation: TaskEvaluation }) {
  const { primary, subScores, rationale } = evaluation
  return (
    <dl className="rc-eval" aria-label={`Evaluation of task ${index}`} data-testid="task-evaluation">
      <div className="rc-eval__score">
        <dt>{primary.name}</dt>
        <dd>{value(primary)}</dd>
      </div>
      {subScores.map((s) => (
        <div key={s.key} className="rc-eval__score" data-domain={s.domain ?? ''}>
          <dt>{s.key}</dt>
          <dd>
            {value(s)}{' '}
            <span
              className={s.domain ? 'rc-tag' : 'rc-muted'}
              title={
                s.domain
                  ? 'the tag this sub-score pertains to: an attacker sees it only when its scope reads that tag'
                  : 'no tag: every attacker sees it'
              }
            >
              {s.domain ?? 'no domain'}
            </span>
          </dd>
        </div>
      ))}
      {rationale ? (
        <div className="rc-eval__why">
          <dt>rationale</dt>
          <dd title={rationale.length > 300 ? rationale.slice(0, 2000) : undefined}>{firstLine(rationale)}</dd>
        </div>
      ) : null}
    </dl>
  )
}
