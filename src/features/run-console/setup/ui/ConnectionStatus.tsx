import { useQuery } from '@tanstack/react-query'
import { targetManifestQuery } from '../../../../queries/targetManifest'
import { ManifestView } from './ManifestView'

/** The manifest of a Target-over-HTTP server, or why it could not be read (CORS explained). */
export function ConnectionStatus({
  url,
  token,
  designerTags,
  attempt = 0,
}: {
  url: string | null
  token: string
  designerTags: readonly string[]
  attempt?: number
}) {
  const q = useQuery(targetManifestQuery(url, token, attempt))
  if (url === null) return null
  if (q.isPending)
    return (
      <p className="rc-muted" role="status">
        Connecting to {url}…
      </p>
    )
  if (q.error)
    return (
      <p className="rc-error" role="alert" data-testid="connection-error">
        Could not connect: {q.error.message}
      </p>
    )
  return <ManifestView manifest={q.data} designerTags={designerTags} />
}
