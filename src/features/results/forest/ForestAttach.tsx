import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { fileText, parseForestJson } from '../../../lib/forestJson'
import type { Forest } from '../../../core/tags'
import { writeAttachedForest } from '../annotations/annotationsDb'
import { annotationKeys } from '../queries/annotations'
import { workspaceForestsQuery } from '../queries/workspaces'
import type { ExperimentForest } from './useExperimentForest'
import { plural } from '../../../lib/plural'
import { currentSiteSource } from '../sourcesStore'
import { FileButton } from '../../../components/FileButton'

interface Props {
  readonly experiment: string
  readonly state: ExperimentForest
}

/**
 * Says which forest the viewer uses for an experiment, and lets the user
 * attach one (a FOREST.json, or a designer workspace) to a plain superred
 * tree, which has none: without it, coverage can only compare names.
 */
export function ForestAttach({ experiment, state }: Props) {
  const client = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const [picking, setPicking] = useState(false)
  const workspaces = useQuery({ ...workspaceForestsQuery(), enabled: picking })
  const attach = async (label: string, forest: Forest | null) => {
    setError(null)
    await writeAttachedForest(experiment, label, forest)
    await client.invalidateQueries({ queryKey: annotationKeys.forest(experiment) })
    setPicking(false)
  }
  const fromFile = async (file: File) => {
    try {
      await attach(file.name, parseForestJson(await fileText(file)))
    } catch (e) {
      setError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  return (
    <div className={`forest-attach forest-attach--${state.origin}`} role={state.origin === 'none' ? 'note' : undefined}>
      {state.origin === 'domain.json' && (
        <span>Forest: from the experiment's domain.json ({plural(state.forest?.tags.length ?? 0, 'tag')}).</span>
      )}
      {state.origin === 'attached' && (
        <span>
          Forest: attached by you from <strong>{state.label}</strong> ({plural(state.forest?.tags.length ?? 0, 'tag')}).{' '}
          <button type="button" className="linkish" onClick={() => void attach('', null)}>
            Detach
          </button>
        </span>
      )}
      {state.origin === 'none' && (
        <span data-testid="names-only-warning">
          <strong>Names only, guessing:</strong> this superred tree has no domain.json, so a tag counts as covered only when its own name is
          granted; children of granted tags show as hidden. Attach the forest to see the real view.
        </span>
      )}
      <span className="forest-attach__actions">
        <FileButton className="button button--small" accept=".json,application/json" hidden ariaLabel="Forest file" onFile={fromFile}>
          {state.origin === 'none' ? 'Attach FOREST.json…' : 'Replace…'}
        </FileButton>
        {/* A static bundle's page has no designer, so no workspace of its own. */}
        {!currentSiteSource() && (
          <button type="button" className="button button--small" onClick={() => setPicking(!picking)}>
            From a workspace…
          </button>
        )}
      </span>
      {picking && (
        <div className="forest-attach__workspaces">
          {workspaces.isPending && <span>Reading workspaces…</span>}
          {workspaces.error && <span className="results-error">Could not read the workspaces: {String(workspaces.error)}</span>}
          {workspaces.data?.length === 0 && <span>No workspace saved in this browser yet.</span>}
          {workspaces.data?.map((w) => (
            <button
              key={w.id}
              type="button"
              className="button button--small"
              onClick={() => void attach(`workspace "${w.name}"`, w.forest)}
            >
              {w.name} ({plural(w.forest.tags.length, 'tag')})
            </button>
          ))}
        </div>
      )}
      {error && (
        <p className="results-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
