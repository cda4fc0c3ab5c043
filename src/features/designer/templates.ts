import { AGENTDOJO_FOREST, CHATBOT_FOREST, type Forest } from '../../core/tags'
import { lostSentence, replaceForest } from '../../stores/forestCommands'
import { notify } from '../../stores/noticeStore'

export const TEMPLATES: Record<'chatbot' | 'agentdojo', { label: string; forest: Forest; blurb: string }> = {
  chatbot: { label: 'Chatbot', forest: CHATBOT_FOREST, blurb: 'two trees: the system side and the user channel (18 threat models)' },
  agentdojo: {
    label: 'AgentDojo',
    forest: AGENTDOJO_FOREST,
    blurb: 'three trees: system, user and one leaf per tool data store (351,974 threat models)',
  },
}

/** One of the guide's forests, as one undoable edit; the scope starts empty. Saved threat models that lose tags are named. */
export function loadTemplate(key: keyof typeof TEMPLATES): void {
  const { lost, workspace } = replaceForest(TEMPLATES[key].forest, { scope: [], readOnly: [] })
  if (lost.length > 0)
    notify(
      'info',
      `Replaced the forest of “${workspace}” with the ${TEMPLATES[key].label} template (Undo brings it back). ${lostSentence(lost)}`,
    )
}
