/**
 * The frontier search an experiment was part of, for its report: the source's
 * frontier.json (a folder `redscope frontier --out` wrote), or for this
 * browser's runs a search kept by the Run page, when one of its evaluations
 * ran this experiment. Null when there is none.
 */
import { useQuery } from '@tanstack/react-query'
import { answerWords, type FrontierFile } from '../../../core/frontier'
import type { KnownFrontier } from '../../../components/sweep/SweepAnalysis'
import { browserFrontiersQuery, frontierFileQuery } from '../queries/sweep'
import { isBrowserRuns, type OpenSource } from '../sourcesStore'

const ranIt = (file: FrontierFile, dir: string) => file.shard === null && file.evaluations.some((e) => e.runs.includes(dir))

function known(file: FrontierFile, source: string): KnownFrontier {
  return { minimalWins: file.claim.minimal_wins.map((m) => ({ scope: m.scope, readOnly: m.read_only })), source, answer: answerWords(file) }
}

export function useFrontierOf(source: OpenSource, src: string, dir: string): KnownFrontier | null {
  const own = isBrowserRuns(source)
  const tree = useQuery({ ...frontierFileQuery(source, src), enabled: !own })
  const kept = useQuery({ ...browserFrontiersQuery(src), enabled: own })
  if (own) {
    const record = kept.data?.find((r) => ranIt(r.file, dir))
    return record ? known(record.file, `The frontier search kept in this browser (${record.title})`) : null
  }
  return tree.data && ranIt(tree.data, dir) ? known(tree.data, `frontier.json of ${source.label}`) : null
}
