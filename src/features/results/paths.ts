/**
 * The viewer's addresses, relative to /results. The path names the place
 * (experiment folder, task folder, run, step number: the 1-based number the
 * viewer, the presenter and the export show, so a link says what people see);
 * the query names the source and the view options, so a link opened in a
 * fresh browser lands on the same event.
 *   /                                     sources and experiments
 *   /<experiment>                         tasks of an experiment
 *   /<experiment>/<task>                  runs of a task, with the cost chart
 *   /<experiment>/<task>/<run>[/<step>]   the trajectory viewer (?present=1: presenter)
 *   /diff?a=<exp>/<task>/<run>&b=...      two runs side by side
 *   /compare?base=<source>&head=<source>  two results compared (either may be missing: it is asked for)
 */
import { stepNumber } from '../../core/replay'

export interface RunRef {
  readonly experiment: string
  readonly task: string
  readonly run: number
}

const seg = encodeURIComponent

export function experimentHref(src: string, experiment: string, extra = ''): string {
  return `/${seg(experiment)}?src=${seg(src)}${extra}`
}

export function taskHref(src: string, experiment: string, task: string): string {
  return `/${seg(experiment)}/${seg(task)}?src=${seg(src)}`
}

/** `event` is the item's index in the full trajectory; the address carries its step number. */
export function runHref(src: string, ref: RunRef, event?: number, opts: { present?: boolean } = {}): string {
  const step = event === undefined ? null : stepNumber(event)
  const base = `/${seg(ref.experiment)}/${seg(ref.task)}/${ref.run}${step === null ? '' : `/${step}`}`
  return `${base}?src=${seg(src)}${opts.present ? '&present=1' : ''}`
}

export const runRefText = (r: RunRef) => `${r.experiment}/${r.task}/${r.run}`

export function parseRunRef(text: string | null): RunRef | null {
  if (!text) return null
  const m = /^([^/]+)\/([^/]+)\/(\d+)$/.exec(text)
  return m ? { experiment: m[1], task: m[2], run: Number(m[3]) } : null
}

export function diffHref(src: string, a: RunRef, b: RunRef): string {
  return `/diff?src=${seg(src)}&a=${seg(runRefText(a))}&b=${seg(runRefText(b))}`
}

/** The task folder of a task, relative to the storage root. */
export const taskDirOf = (experiment: string, task: string) => `${experiment}/tasks/${task}`

/** The last path segment of a manifest task's `dir` ("tasks/00001__goal" → "00001__goal"). */
export const taskSegment = (dir: string) => dir.split('/').filter(Boolean).pop() ?? dir

/** Two results compared: each side is a source key (`folder:`, `zip:`, `url:`, `served:`, `idb:`), null while not chosen. */
export function compareHref(base: string | null, head: string | null): string {
  const q = [base === null ? null : `base=${seg(base)}`, head === null ? null : `head=${seg(head)}`].filter((x) => x !== null)
  return `/compare${q.length > 0 ? `?${q.join('&')}` : ''}`
}
