import { Suspense } from 'react'
import { Link, Route, Switch, useLocation } from 'wouter'
import { ROUTES } from './routes'

/** Top navigation between the app's sections; each section owns the rest of the page. */
export function Shell() {
  const [location] = useLocation()
  const isActive = (path: string) => (path === '/' ? location === '/' : location.startsWith(path))
  return (
    <div className="shell">
      <nav className="shell__nav" aria-label="Sections">
        <span className="shell__brand">redscope</span>
        {ROUTES.map((r) => (
          <Link key={r.path} href={r.path} className="shell__link" aria-current={isActive(r.path) ? 'page' : undefined}>
            {r.label}
          </Link>
        ))}
      </nav>
      <div className="shell__page">
        <Suspense fallback={<p className="shell__loading">Loading…</p>}>
          <Switch>
            {ROUTES.map((r) => (
              <Route key={r.path} path={r.path} nest={r.nest} component={r.component} />
            ))}
            <Route>
              <p className="shell__loading" role="alert">
                There is no page at this address. <Link href="/">Open the designer</Link>
              </p>
            </Route>
          </Switch>
        </Suspense>
      </div>
    </div>
  )
}
