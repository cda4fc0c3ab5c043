/**
 * An EvaluationResult as a target answers it to a `query_evaluation` (the
 * superred persisted shape: Scores as {name, value, security_domain}). Tags
 * are resolved by name against the target's own forest.
 */
import { z } from 'zod'
import { evaluationResult, evidenceFrom, score, type EvaluationResult, type Score } from '../core/engine'
import { formatPath, type SecurityDomain } from '../core/tags'

const ScoreJson = z.object({
  name: z.string().optional(),
  value: z.number(),
  security_domain: z
    .string()
    .nullable()
    .optional()
    .transform((d) => d ?? null),
})

export const EvaluationJsonSchema = z.object({
  success: z.boolean(),
  // A bare number is accepted for the primary score: it cannot carry a domain anyway.
  primary_score: z.union([z.number().transform((value) => ({ value, name: 'primary', security_domain: null })), ScoreJson]),
  sub_scores: z.record(z.string(), ScoreJson).optional().default({}),
  rationale: z.string().optional().default(''),
  /**
   * redscope addition: what the target's check matched (a text or a list), so that a success the attacker
   * echoed can be told apart (docs/targets-claims-attackers.md). Without it, no echo check is possible.
   */
  evidence: z.union([z.string(), z.array(z.string())]).optional(),
})

/** Parses the target's answer; every problem names the field. `where` names where its evidence was found. */
export function evaluationFromJson(text: string, domain: SecurityDomain, where = "the target's evaluation"): EvaluationResult {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`the answer is not JSON: ${JSON.stringify(text.slice(0, 120))}`)
  }
  const parsed = EvaluationJsonSchema.safeParse(json)
  if (!parsed.success) {
    throw new Error(
      `the answer is not an EvaluationResult: ${parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ')}`,
    )
  }
  const e = parsed.data
  const tag = (name: string | null, where: string) => {
    if (name === null) return null
    const t = domain.get(name)
    if (!t) throw new Error(`${where}: tag '${name}' is not in the target's security domain`)
    return t
  }
  const subScores: Record<string, Score> = {}
  for (const [key, s] of Object.entries(e.sub_scores)) {
    subScores[key] = score(s.value, tag(s.security_domain, `sub_scores.${key}.security_domain`), s.name ?? key)
  }
  return evaluationResult({
    success: e.success,
    primaryScore: score(
      e.primary_score.value,
      tag(e.primary_score.security_domain, 'primary_score.security_domain'),
      e.primary_score.name ?? 'primary',
    ),
    subScores,
    rationale: e.rationale,
    evidence: e.evidence === undefined ? null : evidenceFrom(where, typeof e.evidence === 'string' ? [e.evidence] : e.evidence),
  })
}
