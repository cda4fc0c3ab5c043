import type { ReactNode } from 'react'
import { Link, Redirect, Route, Switch, useLocation } from 'wouter'
import { useDesignerView } from './workspace/designerView'
import { useLiveStore } from './live/liveStore'
import { browserRunsHref } from '../../lib/browserResults'
import { ConsolePage } from './run/ConsolePage'
import { SetupColumn } from './setup/ui/SetupColumn'
import { SweepRunPage } from './sweep/SweepRunPage'
import '../../components/components.css'
import './run.css'
import './live.css'
import '../../components/sweep/sweep.css'

function Nav() {
  const [location] = useLocation()
  const state = useLiveStore((s) => s.session?.state)
  const tab = location.startsWith('/sweep') ? 'sweep' : 'run'
  const link = (href: string, id: string, label: string) => (
    <Link href={href} className="rc-nav__link" aria-current={tab === id ? 'page' : undefined}>
      {label}
    </Link>
  )
  return (
    <nav className="rc-nav" aria-label="Run console">
      {link('/', 'run', 'Run a threat model')}
      {link('/sweep', 'sweep', 'Sweep threat models')}
      <span className="rc-nav__spacer" />
      {state === 'running' || state === 'cancelling' ? <span className="rc-state rc-state--running">● a run is in progress</span> : null}
    </nav>
  )
}

function WithSetup({ children }: { children: ReactNode }) {
  const view = useDesignerView()
  return (
    <div className="rc-body">
      <SetupColumn view={view} />
      <main className="rc-main">{children}</main>
    </div>
  )
}

function Console() {
  const view = useDesignerView()
  return (
    <WithSetup>
      <ConsolePage view={view} />
    </WithSetup>
  )
}

function Sweep() {
  const view = useDesignerView()
  return (
    <WithSetup>
      <SweepRunPage view={view} />
    </WithSetup>
  )
}

/** The run console, mounted under /run: set up, run, watch and sweep; the results are listed on the Results tab. */
export function RunSection() {
  return (
    <div className="rc">
      <Nav />
      <Switch>
        {/* This browser's runs are listed on the Results tab now; an old bookmark of /run/results lands there. */}
        <Route path="/results">
          <Redirect to={`~${browserRunsHref()}`} replace />
        </Route>
        <Route path="/sweep/:id?" component={Sweep} />
        <Route component={Console} />
      </Switch>
    </div>
  )
}
