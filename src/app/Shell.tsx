import { Suspense, useState } from 'react'
import { Link, Route, Switch, useLocation } from 'wouter'
import { ROUTES } from './routes'

/**
 * One click from any page: the guide's demo threat model against the demo
 * chatbot, shown live on the Run page. The run console's code loads on the
 * click, so the designer's first paint does not pay for it.
 */
const TAGLINE = 'Threat models for AI systems: draw the trust boundaries, attack as a chosen attacker, replay what it saw beside the truth.'

function DemoAttackButton() {
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  return (
    <button
      type="button"
      className="shell__demo"
      disabled={busy}
      onClick={async () => {
        setBusy(true)
        try {
          const { runDemoAttack } = await import('./demoAttack')
          navigate('/run')
          await runDemoAttack()
        } finally {
          setBusy(false)
        }
      }}
    >
      Run the demo attack
    </button>
  )
}

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
        <span className="shell__tagline" data-testid="tagline" title={TAGLINE}>
          {TAGLINE}
        </span>
        <DemoAttackButton />
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
