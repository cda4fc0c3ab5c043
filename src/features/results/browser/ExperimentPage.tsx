import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from 'wouter'
import { ErrorBox } from '../common/ErrorBox'
import { ForestAttach } from '../forest/ForestAttach'
import { CompliancePanel } from './CompliancePanel'
import { useExperimentForest } from '../forest/useExperimentForest'
import { experimentQuery } from '../queries/experiment'
import { SourceGate } from '../SourceGate'
import { isLiveSource, type OpenSource } from '../sourcesStore'
import { TaskList } from './TaskList'
import { useFrontierOf } from './useFrontierOf'
import { AttackerConfigView } from './AttackerConfigView'
import { TagNames } from '../common/TagNames'
import { ReportButton } from '../../../components/ReportButton'
import { plural } from '../../../lib/plural'
import { asrText, rateWords } from '../../../core/stats'
import { costWords, sumUnpriced } from '../../../core/results'

export function ExperimentPage() {
  const { experiment } = useParams<{ experiment: string }>()
  return <SourceGate>{(source, src) => <Experiment source={source} src={src} dir={experiment} />}</SourceGate>
}

function Experiment({ source, src, dir }: { source: OpenSource; src: string; dir: string }) {
  const { data, error, isPending } = useQuery(experimentQuery(source, src, dir))
  const forest = useExperimentForest(data, dir)
  const frontier = useFrontierOf(source, src, dir)
  if (error)
    return (
      <div className="results-page">
        <ErrorBox title={`Could not open the experiment ${dir}`} error={error} />
      </div>
    )
  if (isPending)
    return (
      <p role="status" className="results-page">
        Reading {dir}…
      </p>
    )
  const { experiment: e, summary } = data.manifest
  const asr = rateWords(summary.n_success, summary.n_completed, { unit: 'task', attacker: e.attacker })
  const echoTasks = data.echoes?.tasks ?? []
  const echoRuns = echoTasks.reduce((n, t) => n + t.runs.length, 0)
  return (
    <div className="results-page results-page--fill">
      <nav className="crumbs" aria-label="Breadcrumbs">
        <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> / <span>{dir}</span>
      </nav>
      <header className="exp-header">
        <h2>
          {e.attacker} → {e.target} · {e.claim} · {e.model ?? 'no-llm'}
        </h2>
        {data.threatModelName && (
          <p data-testid="threat-model-name">
            Threat model <strong>{data.threatModelName}</strong> (saved in the designer)
          </p>
        )}
        <p>
          Scope <TagNames names={e.scope} label={e.scope_label} forest={forest.forest} /> · read only{' '}
          <TagNames names={e.read_only} forest={forest.forest} /> · {data.manifest.status} ·{' '}
          <span data-testid="experiment-asr">{asrText(asr)}</span> · {plural(summary.n_tasks, 'task')} ·{' '}
          <span data-testid="experiment-cost">
            {costWords(summary.total_llm_usage.cost, sumUnpriced(data.unpriced.values()), { calls: summary.total_llm_usage.calls })}
          </span>
        </p>
        {echoTasks.length > 0 && (
          <p className="echo-summary" data-testid="experiment-echoes">
            Echoes: {plural(echoRuns, 'run')} in {plural(echoTasks.length, 'task')} succeeded only on text the attacker injected itself;
            {data.echoes!.count_echoes ? ' counted as breaches (echoes were counted).' : ' not counted as breaches.'}
          </p>
        )}
        <p>
          <ReportButton
            storage={source.storage}
            sourceLabel={source.label}
            dirs={[dir]}
            kind="experiment"
            fileName={dir}
            forest={forest.forest}
            frontier={frontier}
            title={`${e.attacker} → ${e.target} · ${e.claim} · ${data.threatModelName ?? e.scope_label ?? (e.scope.join(', ') || 'no scope')}`}
          />
        </p>
        <AttackerConfigView label={e.attacker} config={data.attackerConfig} dir={dir} />
      </header>
      {data.result === null && (
        <p className="live-banner" role="status" data-testid="in-progress">
          {isLiveSource(source)
            ? 'In progress: this experiment is still being written (no result.json yet); its tasks appear here as they land.'
            : 'In progress or interrupted: this experiment has no result.json yet, so its summary is partial.'}
        </p>
      )}
      <ForestAttach experiment={dir} state={forest} />
      <CompliancePanel
        forest={forest.forest}
        label={data.threatModelName ?? e.scope_label ?? ''}
        scope={e.scope}
        readOnly={e.read_only}
        tasks={data.manifest.tasks}
        taskReferences={data.taskReferences}
      />
      <TaskList
        tasks={data.manifest.tasks}
        configs={data.taskConfigs}
        unpriced={data.unpriced}
        src={src}
        experiment={dir}
        attacker={e.attacker}
        echoes={
          data.echoes ? { byTask: new Map(data.echoes.tasks.map((t) => [t.index, t.runs])), counted: data.echoes.count_echoes } : null
        }
      />
    </div>
  )
}
