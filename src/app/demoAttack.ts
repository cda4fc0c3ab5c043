/**
 * "Run the demo attack": one click from the landing runs the guide's demo
 * threat model (a blind user) against the demo chatbot with its own claim,
 * and the Run page shows it live, with nothing to pick first. The threat
 * model comes from the workspace the first visit seeded (demoWorkspace.ts);
 * when that has been deleted, it is seeded again, and the designer stays on
 * the workspace it had open.
 */
import { pairNames, toForest } from '../core/model'
import { claimFileQuery } from '../features/run-console/queries/claims'
import { queryClient } from '../queries/queryClient'
import { singleRequest } from '../features/run-console/run/startRequest'
import { startFailed, startSingle } from '../features/run-console/run/startOutcomeStore'
import { draftFromClaimFile } from '../features/run-console/setup/claimDraft'
import { DEMO_CLAIMS } from '../features/run-console/setup/demoClaim'
import { setupActions } from '../features/run-console/setup/setupStore'
import { defaultSetup } from '../features/run-console/setup/setupTypes'
import { workspaceService } from '../stores/workspaceService'
import { workspaceStore } from '../stores/workspaceStore'
import type { WorkspaceRecord } from '../stores/workspaceTypes'
import { DEMO_MODEL_ID, demoWorkspace } from './demoWorkspace'
import { designerReady } from './designerBoot'

const DEMO_CLAIM_FILE = DEMO_CLAIMS.chatbot

/** The seeded demo workspace (the open one first), or a fresh copy of it. */
async function demoRecord(): Promise<WorkspaceRecord> {
  const service = workspaceService()
  const { activeId, workspaces } = workspaceStore.getState()
  const ids = [...workspaces.map((w) => w.id)].sort((a, b) => Number(b === activeId) - Number(a === activeId))
  for (const id of ids) {
    const r = await service.read(id)
    if (r?.models.some((m) => m.id === DEMO_MODEL_ID)) return r
  }
  const seed = demoWorkspace()
  const id = await service.create(seed.name, seed.doc, seed.models)
  if (activeId !== null) await service.open(activeId)
  return (await service.read(id))!
}

export async function runDemoAttack(): Promise<void> {
  try {
    await designerReady()
    const record = await demoRecord()
    const model = record.models.find((m) => m.id === DEMO_MODEL_ID)!
    const claim = await queryClient.fetchQuery(claimFileQuery(DEMO_CLAIM_FILE))
    const a = setupActions()
    a.setTarget({ kind: 'demo', demo: 'chatbot' })
    a.setClaim(draftFromClaimFile(claim, DEMO_CLAIM_FILE))
    a.setAttacker(defaultSetup().attacker)
    a.setThreat({ workspace: record.id, source: model.id })
    await startSingle(() =>
      singleRequest(toForest(record.doc), { ...pairNames(record.doc, model), name: model.name, savedName: model.name }, record.name, true),
    )
  } catch (e) {
    startFailed(`The demo attack could not start: ${(e as Error).message}`)
  }
}
