import { useLocation, useSearchParams } from 'wouter'

/** The source key and view options of the current address, and a way to go elsewhere in the viewer. */
export function useResultsLocation() {
  const [location, navigate] = useLocation()
  const [params] = useSearchParams()
  const src = params.get('src')
  return {
    location,
    params,
    src,
    navigate,
    /** The same place, with one query parameter changed (null removes it). */
    withParam(name: string, value: string | null): string {
      const next = new URLSearchParams(params)
      if (value === null) next.delete(name)
      else next.set(name, value)
      return `${location}?${next.toString()}`
    },
  }
}
