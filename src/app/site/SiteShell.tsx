import { Router } from 'wouter'
import type { BundleStorage } from '../../adapters/storage/bundleStorage'
import { ResultsSection } from '../../features/results/ResultsSection'
import { hashHref, useHashSearch, useHashSearchLocation } from './hashLocation'

const when = (iso: string) => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString()
}

/** What this copy is, in one line: what, when, by what, and whether secrets were masked. */
function SiteBar({ storage }: { storage: BundleStorage }) {
  const { meta } = storage
  const r = meta.redaction
  return (
    <header className="site-bar" aria-label="About this copy">
      <span className="shell__brand">redscope</span>
      <span className="site-bar__title" data-testid="site-title">
        {meta.title}
      </span>
      <span className="site-bar__about">
        A read-only copy of {meta.experiments.toLocaleString('en-US')} experiment{meta.experiments === 1 ? '' : 's'}, made{' '}
        {when(meta.createdAt)} by {meta.madeBy}.{' '}
        {r.applied ? (
          <span data-testid="site-redaction" title={r.rules.map((x) => x.label).join('\n')}>
            Secrets masked by the {r.rules.length} built-in rules ({r.masked.toLocaleString('en-US')} masked); patterns never catch every
            disguise.
          </span>
        ) : (
          <strong data-testid="site-redaction" className="site-bar__warn">
            Not redacted: made with --no-redact, it holds the results exactly as they were written.
          </strong>
        )}
      </span>
    </header>
  )
}

export function SiteShell({ storage }: { storage: BundleStorage | string }) {
  if (typeof storage === 'string')
    return (
      <p className="shell__loading" role="alert">
        {storage}
      </p>
    )
  return (
    <div className="shell">
      <SiteBar storage={storage} />
      <div className="shell__page">
        <Router hook={useHashSearchLocation} searchHook={useHashSearch} hrefs={hashHref}>
          <ResultsSection />
        </Router>
      </div>
    </div>
  )
}
