/**
 * The attacker's label in experiment folders, for every attacking command: derived from its configuration
 * (`template-3f2a9c1b`) unless `--attacker-label` names it, and a named label checked against the folders this
 * command would resume before anything is written (issue 31: a changed attacker never gets an old verdict).
 */
import { join } from 'node:path'
import {
  attackerClashText,
  derivedAttackerLabel,
  describeAttackerConfig,
  findAttackerClashes,
  type AttackerConfig,
  type ClashQuery,
  type Storage,
} from '../core/results'
import { UsageError } from './io'

export interface AttackerLabel {
  readonly label: string
  /** The label the user named, or null when it is derived from the configuration. */
  readonly forced: string | null
}

export function attackerLabelOf(config: AttackerConfig, forced: string | undefined): AttackerLabel {
  return { label: forced ?? derivedAttackerLabel(config), forced: forced ?? null }
}

/** `attacker template-3f2a9c1b: template, 1 payload ("{goal}"), injected before calls`, the label with what it stands for. */
export function attackerLine(label: AttackerLabel, config: AttackerConfig): string {
  return `attacker ${label.label}: ${describeAttackerConfig(config)}${label.forced === null ? ' (label derived from this configuration)' : ''}\n`
}

/**
 * Refuses (exit 2) when a folder this command would resume, under `out` in `storage`, holds another attacker
 * configuration, naming what it holds and what was asked.
 */
export async function refuseAttackerClash(storage: Storage, out: string, label: AttackerLabel, query: ClashQuery): Promise<void> {
  const clashes = await findAttackerClashes(storage, '', query)
  if (clashes.length === 0) return
  const [first] = clashes
  const more = clashes.length > 1 ? ` (and ${clashes.length - 1} more folder(s) of this label)` : ''
  const flag = label.forced === null ? `attacker ${label.label}` : `--attacker-label ${label.forced}`
  throw new UsageError(
    `${flag}: ${attackerClashText(first, join(out, first.dir))}${more}: ` +
      'name this attacker with another --attacker-label, or give it another --out',
  )
}
