import type { Manifest } from '../../../../protocol'

/** A target's manifest, as text: what it is, its forest and its surfaces with their domains. */
export function ManifestView({ manifest, designerTags }: { manifest: Manifest; designerTags: readonly string[] }) {
  const names = new Set(manifest.security_domain.map((t) => t.name))
  const missing = designerTags.filter((n) => !names.has(n))
  const roots = manifest.security_domain.filter((t) => t.parent === null)
  const kids = (name: string) => manifest.security_domain.filter((t) => t.parent === name)
  const tree = (name: string): string =>
    kids(name).length
      ? `${name} (${kids(name)
          .map((k) => tree(k.name))
          .join(', ')})`
      : name
  // A served claim's hooks are the bridge's plumbing for older claim files, not the target's own surfaces.
  const hooks = manifest.claim?.hooks ?? {}
  const configs = manifest.config_specs.filter((c) => c.name !== hooks.config)
  const queries = manifest.query_specs.filter((q) => q.name !== hooks.query)
  const hookNames = [hooks.config, hooks.query].filter((n): n is string => n !== undefined)
  const chips = (list: readonly { name: string; description: string }[]) =>
    list.length ? (
      list.map((c) => (
        <span key={c.name} className="rc-chip" title={c.description}>
          {c.name}
        </span>
      ))
    ) : (
      <span className="rc-muted">none</span>
    )
  return (
    <div className="rc-manifest" data-testid="manifest">
      <p className="rc-ok" role="status">
        ✓ Connected: <strong>{manifest.name}</strong>{' '}
        <span className="rc-muted">
          ({manifest.protocol}, {manifest.concurrency} sessions at once)
        </span>
      </p>
      {manifest.description ? <p className="rc-muted rc-small">{manifest.description}</p> : null}
      <dl className="rc-dl">
        <dt>Forest</dt>
        <dd className="rc-mono">{roots.map((r) => tree(r.name)).join(' · ')}</dd>
        <dt>Controllables</dt>
        <dd>
          {manifest.controllables.map((c) => (
            <span key={c.name} className="rc-chip">
              {c.name} → {c.security_domain}
            </span>
          ))}
        </dd>
        <dt>Observables</dt>
        <dd>
          {manifest.observables.length ? (
            manifest.observables.map((o) => (
              <span key={o.name} className="rc-chip">
                {o.name} → {o.security_domain ?? '—'}
              </span>
            ))
          ) : (
            <span className="rc-muted">none static</span>
          )}
        </dd>
        <dt>Config</dt>
        <dd data-testid="manifest-configs">{chips(configs)}</dd>
        <dt>Queries</dt>
        <dd data-testid="manifest-queries">{chips(queries)}</dd>
        {manifest.claim ? (
          <>
            <dt>Claim</dt>
            <dd data-testid="manifest-claim">
              <span className="rc-chip" title={manifest.claim.description}>
                {manifest.claim.name}
              </span>{' '}
              <span className="rc-muted">
                {manifest.claim.tasks.length} task{manifest.claim.tasks.length === 1 ? '' : 's'}, served by the target
              </span>
              {hookNames.length ? <span className="rc-muted rc-small"> · for older claim files: {hookNames.join(', ')}</span> : null}
            </dd>
          </>
        ) : null}
      </dl>
      {missing.length > 0 ? (
        <p className="rc-warn rc-small">
          The designer’s forest has tags this target does not: {missing.join(', ')}. Scopes are matched to the target’s tags by name, so a
          threat model granting them cannot run here.
        </p>
      ) : null}
    </div>
  )
}
