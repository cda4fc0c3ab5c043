/**
 * A served optimizer's notes (attacker_notes.json) read for people: grouped
 * by the run they were said in, and, where a note is the JSON object the
 * attacker model answered (PAIR's and TAP's `{"improvement", "prompt"}`,
 * Crescendo's `{"generated_question", "rationale_behind_jailbreak", ...}`),
 * its fields one by one. Everything stays text: nothing here is markup.
 */
import type { AttackerNotesFile } from '../../../core/results'

export interface NoteView {
  readonly during: string
  /** The note's fields when it holds one JSON object of strings, else null (then `text` is shown). */
  readonly fields: ReadonlyArray<readonly [string, string]> | null
  readonly text: string
}

export interface RunNotes {
  /** 0: before the first run started. */
  readonly run: number
  readonly notes: readonly NoteView[]
}

/** The first `{...}` of the text as a flat object of strings and numbers, or null. */
function objectIn(text: string): Array<[string, string]> | null {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end <= start) return null
  let value: unknown
  try {
    value = JSON.parse(text.slice(start, end + 1))
  } catch {
    return null
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'string' || typeof v === 'number')) return null
  return entries.map(([k, v]) => [k, String(v)])
}

export function notesByRun(file: AttackerNotesFile | null): RunNotes[] {
  const out: RunNotes[] = []
  for (const n of file?.notes ?? []) {
    const view: NoteView = { during: n.during, fields: objectIn(n.text), text: n.text }
    const last = out.at(-1)
    if (last !== undefined && last.run === n.run) (last.notes as NoteView[]).push(view)
    else out.push({ run: n.run, notes: [view] })
  }
  return out
}

/** Where in the run a note was said, in words. */
export function duringText(during: string): string {
  switch (during) {
    case 'initialize':
      return 'while it set up'
    case 'RunStartEvent':
      return 'as the run started'
    case 'ControllablePreCallEvent':
      return 'before a call'
    case 'ControllablePostCallEvent':
      return 'after a call'
    case 'RunEndEvent':
      return 'after the verdict'
    case 'teardown':
      return 'as it finished'
    default:
      return during
  }
}
