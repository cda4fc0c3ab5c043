import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { StepAnnotation } from '../../../core/finding'
import { writeStepAnnotation, type RunAddress } from './annotationsDb'
import { annotationKeys, runAnnotationsQuery } from '../queries/annotations'

const EMPTY: ReadonlyMap<number, StepAnnotation> = new Map()

/** A run's notes and bookmarks, and a way to change one step's (written to IndexedDB, shown at once). */
export function useRunAnnotations(run: RunAddress) {
  const client = useQueryClient()
  const { data, error } = useQuery(runAnnotationsQuery(run))
  const mutation = useMutation({
    mutationFn: ({ event, value }: { event: number; value: StepAnnotation }) => writeStepAnnotation(run, event, value),
    onMutate: ({ event, value }) => {
      client.setQueryData(annotationKeys.run(run), (old: Map<number, StepAnnotation> | undefined) => {
        const next = new Map(old ?? [])
        if (value.note.trim() === '' && !value.bookmarked) next.delete(event)
        else next.set(event, value)
        return next
      })
    },
    onSettled: () => client.invalidateQueries({ queryKey: annotationKeys.run(run) }),
  })
  const annotations = data ?? EMPTY
  return {
    annotations,
    error: error ?? mutation.error,
    save: (event: number, value: StepAnnotation) => mutation.mutate({ event, value }),
    toggleBookmark: (event: number) => {
      const cur = annotations.get(event)
      mutation.mutate({ event, value: { note: cur?.note ?? '', bookmarked: !cur?.bookmarked } })
    },
  }
}
