/**
 * A demo target on a model (the run console's switch): every task of the
 * claim gets `policy_model` and `policy_base_url`, so the results record which
 * model wrote the replies, as any other task config. A task that sets them
 * itself keeps its own. The demo target is served by the app's own server,
 * which calls the model: no CORS between the page and the model server.
 */
import type { ClaimFile } from '../../../claims'
import { SetupError } from './numbers'
import type { TargetSetup } from './setupTypes'

/** How the run's title names the target: a demo says what writes its replies. */
export function demoTitle(t: Pick<TargetSetup, 'demo' | 'demoModel'>): string {
  return t.demoModel.on ? `demo ${t.demo} on ${t.demoModel.model.trim() || 'a model'}` : `demo ${t.demo} (deterministic)`
}

/** The model's problem, or null: checked as typed, and again before a run starts. */
export function demoModelIssue(t: Pick<TargetSetup, 'demoModel'>): string | null {
  if (!t.demoModel.on) return null
  if (t.demoModel.model.trim() === '') return 'name the model the server serves (e.g. smollm2)'
  let url: URL
  try {
    url = new URL(t.demoModel.baseURL.trim())
  } catch {
    return "type the model server's base URL, e.g. http://127.0.0.1:8808/v1"
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return "the model server's URL must be http(s)"
  if (url.username || url.password) return "the model server's URL must not carry credentials"
  return null
}

export function withDemoModel(claim: ClaimFile, target: TargetSetup): ClaimFile {
  if (target.kind !== 'demo' || !target.demoModel.on) return claim
  const issue = demoModelIssue(target)
  if (issue !== null) throw new SetupError(`Target: ${issue}`)
  const model = { policy_model: target.demoModel.model.trim(), policy_base_url: target.demoModel.baseURL.trim().replace(/\/+$/, '') }
  return { ...claim, tasks: claim.tasks.map((t) => ({ ...t, config: { ...model, ...t.config } })) }
}
