import { Route, Switch } from 'wouter'
import { HomePage } from './browser/HomePage'
import { ExperimentPage } from './browser/ExperimentPage'
import { TaskPage } from './browser/TaskPage'
import { RunPage } from './viewer/RunPage'
import { DiffPage } from './diff/DiffPage'
import { SweepTreePage } from './browser/SweepTreePage'
import { FrontierPage } from './browser/FrontierPage'
import { ComparePage } from './compare/ComparePage'
import './results.css'

/** The results browser and trajectory viewer, mounted under /results. */
export function ResultsSection() {
  return (
    <div className="results">
      <Switch>
        <Route path="/" component={HomePage} />
        <Route path="/diff" component={DiffPage} />
        {/* An experiment folder is always `{slug}-{hash8}`, so it can never be named "sweep", "frontier" or "compare". */}
        <Route path="/sweep" component={SweepTreePage} />
        <Route path="/frontier" component={FrontierPage} />
        <Route path="/compare" component={ComparePage} />
        <Route path="/:experiment/:task/:run/:event?" component={RunPage} />
        <Route path="/:experiment/:task" component={TaskPage} />
        <Route path="/:experiment" component={ExperimentPage} />
      </Switch>
    </div>
  )
}
