/**
 * The workspace a first visit opens: superred's chatbot forest with the
 * guide's catalogue of chatbot attackers saved as threat models, so that the
 * demo target can be attacked from the run console with no setup at all.
 * The current scope starts empty: granting is the user's first click.
 */
import { docFromForest } from '../core/model'
import { CHATBOT_FOREST } from '../core/tags'
import { newTagId } from '../stores/ids'
import type { WorkspaceSeed } from '../stores/workspaceService'
import type { SavedModel } from '../stores/workspaceTypes'

/** name, read & write, read only, notes: the scopes of the guide's worked example 1. */
const GUIDE_CATALOGUE: ReadonlyArray<[string, string[], string[], string]> = [
  ['Guide: blind user', ['user'], [], 'Sends messages and sees the reply, nothing else. The most realistic attacker.'],
  ['Guide: user who knows the model', ['user', 'model_identity'], [], 'Also knows which model it is attacking.'],
  ['Guide: user who sees the system prompt', ['user'], ['system_prompt'], 'Can read the system prompt but not change it.'],
  ['Guide: user who overrides the system prompt', ['user', 'system_prompt'], [], 'Can replace the system prompt and send messages.'],
  ['Guide: user who reads the responses', ['user'], ['model'], "Reads the model's responses out of band, cannot rewrite them."],
  ['Guide: compromised output', ['user', 'model'], [], "Rewrites the model's responses and sends messages."],
]

/** The saved id of the guide's blind user: the landing's "Run the demo attack" runs it. */
export const DEMO_MODEL_ID = 'guide-1'

export function demoWorkspace(now = Date.now()): WorkspaceSeed {
  const doc = docFromForest(CHATBOT_FOREST, newTagId)
  const idOf = (name: string) => doc.tags.find((t) => t.name === name)!.id
  const models: SavedModel[] = GUIDE_CATALOGUE.map(([name, scope, readOnly, notes], i) => ({
    id: `guide-${i + 1}`,
    name,
    scope: scope.map(idOf),
    readOnly: readOnly.map(idOf),
    notes,
    savedAt: now,
  }))
  return { name: 'Chatbot (guide example)', doc, models }
}
