/**
 * What the run console reads from the designer (its public stores): the
 * current workspace's forest, its scope and read_only, and its saved threat
 * models, all by tag name (the engine matches names against the target's
 * own tags). Read only: the console never writes the designer's state.
 */
import { useMemo } from 'react'
import { pairNames, toForest } from '../../../core/model'
import { buildDomain, type Forest, type SecurityDomain } from '../../../core/tags'
import { useDesigner } from '../../../stores/designerStore'
import { selectDoc } from '../../../stores/selectors'
import { useWorkspace } from '../../../stores/workspaceStore'
import type { ThreatModelNames } from '../engine/buildRun'

export interface NamedModel extends ThreatModelNames {
  readonly id: string
  readonly name: string
}

export interface DesignerView {
  readonly workspace: string
  readonly forest: Forest
  readonly domain: SecurityDomain | null
  /** Why the forest is not one superred would accept, when it is not. */
  readonly forestError: string | null
  readonly current: ThreatModelNames
  readonly saved: readonly NamedModel[]
}

export function useDesignerView(): DesignerView {
  const doc = useDesigner(selectDoc)
  const models = useWorkspace((s) => s.models)
  const workspace = useWorkspace((s) => s.name)
  return useMemo(() => {
    const forest = toForest(doc)
    let domain: SecurityDomain | null = null
    let forestError: string | null = null
    try {
      domain = buildDomain(forest)
    } catch (e) {
      forestError = (e as Error).message
    }
    return {
      workspace, forest, domain, forestError,
      current: pairNames(doc, doc),
      saved: models.map((m) => ({ id: m.id, name: m.name, ...pairNames(doc, m) })),
    }
  }, [doc, models, workspace])
}

/** The threat model a single run uses: the designer's current scope, or a saved model by id. */
export function chosenModel(view: DesignerView, source: string): (ThreatModelNames & { label: string }) | null {
  if (source === 'designer') return { ...view.current, label: 'the designer’s current scope' }
  const m = view.saved.find((s) => s.id === source)
  return m ? { scope: m.scope, readOnly: m.readOnly, label: `saved threat model “${m.name}”` } : null
}
