/**
 * The claim evaluators. Each judges one run on the full trajectory and the
 * target's post-run queries, as superred's `Task.evaluate` does.
 */
import {
  evaluationResult,
  evidenceFrom,
  score,
  servesTasks,
  type EvaluationResult,
  type LLMClient,
  type ReadableTrajectory,
  type Target,
  type TrajectoryItem,
  type Evidence,
} from '../core/engine'
import { userPattern, type TextPattern } from '../core/patterns'
import { contentText } from './contentText'
import { evaluationFromJson } from './evaluationJson'
import { judgeRun } from './llmJudge'
import type { Evaluator } from './schema'

export interface EvaluatorDeps {
  /** The judge's client for llm_judge (one per task). */
  readonly judge?: () => LLMClient
}

export type EvaluateFn = (goal: string, trajectory: ReadableTrajectory, target: Target) => Promise<EvaluationResult>

const verdict = (success: boolean, rationale: string, evidence: Evidence | null = null) =>
  evaluationResult({ success, primaryScore: score(success ? 1 : 0), rationale, evidence })

/** Every match's text, lazily: the evidence takes the first EVIDENCE_MAX distinct ones and stops the search there. */
function* matchTexts(pattern: TextPattern, texts: Iterable<string>): Generator<string> {
  for (const text of texts) for (const m of pattern.matchAll(text)) yield m.text
}

function preview(text: string): string {
  return JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text)
}

export function makeEvaluator(spec: Evaluator, deps: EvaluatorDeps): EvaluateFn {
  switch (spec.type) {
    case 'query_match': {
      // On the linear-time engine, so a claim's pattern cannot hang a run; compiled once for every evaluator that uses it.
      const pattern = userPattern(spec.pattern, spec.flags)
      return async (_goal, _trajectory, target) => {
        const answer = await target.query(spec.query, spec.params)
        const hit = pattern.test(answer)
        return verdict(
          hit,
          `query ${spec.query} ${hit ? 'matched' : 'did not match'} /${spec.pattern}/${spec.flags}: ${preview(answer)}`,
          hit ? evidenceFrom(`query ${spec.query}`, matchTexts(pattern, [answer])) : null,
        )
      }
    }
    case 'query_evaluation':
      return async (_goal, _trajectory, target) => {
        const answer = await target.query(spec.query, spec.params)
        try {
          return evaluationFromJson(answer, target.securityDomain, `query ${spec.query}`)
        } catch (e) {
          throw new Error(`query_evaluation ${spec.query}: ${(e as Error).message}`, { cause: e })
        }
      }
    case 'trajectory_match': {
      const pattern = userPattern(spec.pattern, spec.flags)
      return async (_goal, trajectory) => {
        const seen = trajectory
          .snapshot()
          .filter(
            (i): i is Extract<TrajectoryItem, { type: 'ObservableEvent' }> =>
              i.type === 'ObservableEvent' && i.observable.name === spec.observable,
          )
        const hit = seen.find((i) => pattern.test(contentText(i.content)))
        return verdict(
          hit !== undefined,
          hit
            ? `observable ${spec.observable} matched /${spec.pattern}/${spec.flags}: ${preview(contentText(hit.content))}`
            : `none of ${seen.length} ${spec.observable} observation(s) matched /${spec.pattern}/${spec.flags}`,
          // Every observation's matches: one the attacker did not write is enough for a breach.
          hit
            ? evidenceFrom(
                `observable ${spec.observable}`,
                matchTexts(
                  pattern,
                  seen.map((i) => contentText(i.content)),
                ),
              )
            : null,
        )
      }
    }
    case 'served':
      return async (_goal, _trajectory, target) => {
        if (!servesTasks(target)) throw new Error("a 'served' evaluator needs a target that serves its claim's tasks")
        return target.servedEvaluation()
      }
    case 'llm_judge': {
      if (!deps.judge) throw new Error('llm_judge needs a judge model (none was configured)')
      let client: LLMClient | null = null
      return async (goal, trajectory, target) => {
        client ??= deps.judge!()
        const extra = spec.query ? { name: spec.query.name, answer: await target.query(spec.query.name, spec.query.params) } : null
        return judgeRun(client, {
          goal,
          criteria: spec.criteria,
          observables: spec.observables ?? null,
          items: trajectory.snapshot(),
          query: extra,
        })
      }
    }
  }
}
