/**
 * A trajectory as plain lines for a model or a person to read. Contents are
 * quoted and clipped: they are data (possibly hostile), never markup.
 */
import type { EvaluationResult, TrajectoryItem } from '../core/engine'

export function clip(text: string, max = 600): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text
}

function contentText(content: unknown): string {
  return typeof content === 'string' ? content : (JSON.stringify(content) ?? 'null')
}

export function describeEvaluation(e: EvaluationResult | null): string {
  if (e === null) return 'no feedback'
  const subs = Object.entries(e.subScores)
    .map(([k, s]) => `${k}=${s.value}`)
    .join(', ')
  return `success=${e.success}, score=${e.primaryScore.value}${subs ? ` (${subs})` : ''}${e.rationale ? `: ${clip(e.rationale, 400)}` : ''}`
}

export function describeItem(item: TrajectoryItem): string | null {
  switch (item.type) {
    case 'ObservableEvent':
      return `[${item.observable.name}] ${JSON.stringify(clip(contentText(item.content)))}`
    case 'ControllablePreCallEvent':
      return `[pause before ${item.controllable.name}] request: ${JSON.stringify(clip(item.request, 300))}`
    case 'ControllablePostCallEvent':
      return `[pause after ${item.controllable.name}] request: ${JSON.stringify(clip(item.request, 300))}, answer: ${JSON.stringify(clip(item.answer))}`
    case 'ControllableInjection':
      return `  -> injected into ${item.controllable.name}: ${JSON.stringify(clip(item.value, 400))}`
    case 'ControllableNoInjection':
      return `  -> no injection into ${item.controllable.name} (declined by ${item.declinedBy})`
    case 'RunEndEvent':
      return `[run end] ${describeEvaluation(item.evaluation)}`
    default:
      return null
  }
}

export function describeTrajectory(items: readonly TrajectoryItem[]): string {
  return items
    .map(describeItem)
    .filter((l): l is string => l !== null)
    .join('\n')
}
