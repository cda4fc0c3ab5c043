/**
 * The claim table as typed ↔ a claim file. Validation is the claims module's
 * own zod schema, run on every keystroke; its issues come back keyed by the
 * cell they are about (`tasks.2.evaluator.pattern`), so the table can put
 * each message beside its cell.
 */
import { ClaimFileSchema, type ClaimFile, type Evaluator } from '../../../claims'
import { draftId, type ClaimDraft, type TaskDraft } from './setupTypes'

const pairs = (record: Readonly<Record<string, string>> | undefined) =>
  Object.entries(record ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')

export function draftFromClaimFile(file: ClaimFile, origin: string): ClaimDraft {
  return {
    name: file.name,
    description: file.description ?? '',
    target: file.target ?? '',
    origin,
    ...(file.references?.length ? { references: [...file.references] } : {}),
    tasks: file.tasks.map((t): TaskDraft => {
      const e: Evaluator = t.evaluator
      return {
        id: draftId('t'),
        goal: t.goal,
        config: pairs(t.config),
        ...(t.references?.length ? { references: [...t.references] } : {}),
        evaluator: {
          type: e.type,
          query: e.type === 'query_match' || e.type === 'query_evaluation' ? e.query : e.type === 'llm_judge' ? (e.query?.name ?? '') : '',
          params:
            e.type === 'query_match' || e.type === 'query_evaluation'
              ? pairs(e.params)
              : e.type === 'llm_judge'
                ? pairs(e.query?.params)
                : '',
          pattern: e.type === 'query_match' || e.type === 'trajectory_match' ? e.pattern : '',
          flags: e.type === 'query_match' || e.type === 'trajectory_match' ? e.flags : '',
          observable: e.type === 'trajectory_match' ? e.observable : '',
          criteria: e.type === 'llm_judge' ? e.criteria : '',
          observables: e.type === 'llm_judge' ? (e.observables ?? []).join(', ') : '',
          servedTask: t.served_task === undefined ? '' : String(t.served_task),
        },
      }
    }),
  }
}

/** `name=value` lines; a line without `=` is an issue naming its line. */
function parsePairs(text: string, where: string, issues: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    const eq = line.indexOf('=')
    if (eq <= 0) {
      if (!issues.has(where)) issues.set(where, `line ${i + 1}: expected name=value`)
      return
    }
    const name = line.slice(0, eq).trim()
    // Assigned, "__proto__" would set the prototype and vanish (as parseClaimFile refuses it in a file).
    if (name === '__proto__') {
      if (!issues.has(where)) issues.set(where, `line ${i + 1}: __proto__ is not a name a claim can use`)
      return
    }
    out[name] = line.slice(eq + 1)
  })
  return out
}

function evaluatorJson(e: TaskDraft['evaluator'], where: string, issues: Map<string, string>): Record<string, unknown> {
  switch (e.type) {
    case 'query_match':
      return { type: e.type, query: e.query, params: parsePairs(e.params, `${where}.params`, issues), pattern: e.pattern, flags: e.flags }
    case 'query_evaluation':
      return { type: e.type, query: e.query, params: parsePairs(e.params, `${where}.params`, issues) }
    case 'served':
      return { type: e.type }
    case 'trajectory_match':
      return { type: e.type, observable: e.observable, pattern: e.pattern, flags: e.flags }
    case 'llm_judge': {
      const observables = e.observables
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      return {
        type: e.type,
        criteria: e.criteria,
        ...(observables.length ? { observables } : {}),
        ...(e.query.trim() ? { query: { name: e.query.trim(), params: parsePairs(e.params, `${where}.params`, issues) } } : {}),
      }
    }
  }
}

/** The served task's number as typed; anything but a whole number from 1 is an issue on its cell. */
function servedNumber(text: string, where: string, issues: Map<string, string>): number {
  const n = Number(text.trim())
  if (!/^\d+$/.test(text.trim()) || n < 1) issues.set(where, 'a task number of the served claim, from 1')
  return n
}

export interface ClaimCheck {
  /** The claim file, when every cell is valid. */
  readonly file: ClaimFile | null
  /** Messages by cell path (`name`, `tasks.0.goal`, `tasks.1.evaluator.pattern`...); '' for the claim as a whole. */
  readonly issues: ReadonlyMap<string, string>
}

export function claimJson(draft: ClaimDraft, issues: Map<string, string> = new Map()) {
  return {
    name: draft.name,
    ...(draft.description ? { description: draft.description } : {}),
    ...(draft.target ? { target: draft.target } : {}),
    ...(draft.references?.length ? { references: draft.references } : {}),
    tasks: draft.tasks.map((t, i) => ({
      goal: t.goal,
      config: parsePairs(t.config, `tasks.${i}.config`, issues),
      ...(t.references?.length ? { references: t.references } : {}),
      ...(t.evaluator.type === 'served'
        ? { served_task: servedNumber(t.evaluator.servedTask ?? '', `tasks.${i}.evaluator.servedTask`, issues) }
        : {}),
      evaluator: evaluatorJson(t.evaluator, `tasks.${i}.evaluator`, issues),
    })),
  }
}

export function checkClaim(draft: ClaimDraft): ClaimCheck {
  const issues = new Map<string, string>()
  const json = claimJson(draft, issues)
  const parsed = ClaimFileSchema.safeParse(json)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.')
      // Evaluator params live in one cell; the schema names each param.
      const cell = key.replace(/^(tasks\.\d+\.evaluator\.(?:query\.)?params)\..*$/, '$1').replace(/^(tasks\.\d+\.config)\..*$/, '$1')
      if (!issues.has(cell)) issues.set(cell, issue.message)
    }
  }
  return { file: parsed.success && issues.size === 0 ? parsed.data : null, issues }
}

/** The claim as a file to download: exactly what the table holds, validated or not. */
export function claimFileText(draft: ClaimDraft): string {
  return `${JSON.stringify(claimJson(draft), null, 2)}\n`
}
