/** A claim file turned into the engine's SecurityClaim: one Task per entry, config applied before the runs. */
import { SecurityClaim, servesTasks, type Task } from '../core/engine'
import { protoKeyPath } from '../core/json'
import { formatPath } from '../core/tags'
import { makeEvaluator, type EvaluatorDeps } from './evaluators'
import { ClaimFileSchema, type ClaimFile } from './schema'

export class ClaimFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ClaimFileError'
  }
}

/** Parses a claim file's text. `where` names it in errors (a path or a URL). */
export function parseClaimFile(text: string, where: string): ClaimFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new ClaimFileError(`${where}: not valid JSON (${(e as Error).message})`)
  }
  // A "__proto__" name would vanish in parsing (see protoKeyPath) where any other unknown name is refused.
  const proto = protoKeyPath(json)
  if (proto !== null) throw new ClaimFileError(`${where}: not a claim file: ${formatPath(proto)}: not a name a claim file can use`)
  const parsed = ClaimFileSchema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 4)
      .map((i) => `${formatPath(i.path)}: ${i.message}`)
      .join('; ')
    throw new ClaimFileError(`${where}: not a claim file: ${issues}`)
  }
  return parsed.data
}

/** Builds the claim. An llm_judge without a judge is refused here, before any run. */
export function claimFromFile(file: ClaimFile, deps: EvaluatorDeps = {}, where = 'claim'): SecurityClaim {
  const tasks: Task[] = file.tasks.map((t, i) => {
    let evaluate
    try {
      evaluate = makeEvaluator(t.evaluator, deps)
    } catch (e) {
      throw new ClaimFileError(`${where}: tasks[${i}].evaluator: ${(e as Error).message}`)
    }
    return {
      goal: { description: t.goal },
      config: t.config,
      // The claim's references and the task's own, recorded with the task's config (task_configs.json).
      ...((file.references?.length ?? 0) + (t.references?.length ?? 0) > 0
        ? { references: [...new Set([...(file.references ?? []), ...(t.references ?? [])])] }
        : {}),
      async configureTarget(target) {
        if (t.served_task !== undefined) {
          if (!servesTasks(target)) throw new Error(`task ${i + 1} is served task ${t.served_task}, but this target serves no claim`)
          await target.configureServedTask(t.served_task)
        }
        for (const [name, value] of Object.entries(t.config)) await target.setConfig(name, value)
      },
      evaluate: (trajectory, target) => evaluate(t.goal, trajectory, target),
    }
  })
  return SecurityClaim.fromTasks(tasks, file.name)
}

/**
 * The claim a target serves itself (its manifest's `claim`) as a claim file: one task per served task,
 * configured and judged on the target's side. `redscope run` and `sweep` use it when no --claim is given.
 */
export function claimFileFromServed(
  served: {
    name: string
    description: string
    references?: readonly string[]
    tasks: readonly { goal: string; references?: readonly string[] }[]
  },
  targetName: string,
): ClaimFile {
  return {
    name: served.name,
    ...(served.references && served.references.length > 0 ? { references: [...served.references] } : {}),
    description: served.description || `the claim ${targetName} serves: configured and evaluated on the target's side`,
    target: targetName,
    tasks: served.tasks.map((t, i) => ({
      goal: t.goal,
      config: {},
      served_task: i + 1,
      evaluator: { type: 'served' },
      ...(t.references && t.references.length > 0 ? { references: [...t.references] } : {}),
    })),
  }
}

/** Does the claim need a judge model? (The CLI asks for one only then.) */
export function needsJudge(file: ClaimFile): boolean {
  return file.tasks.some((t) => t.evaluator.type === 'llm_judge')
}
