// @vitest-environment node
/**
 * What buildRun (every start path of the console: Run, Run sweep, the frontier search, the landing's demo button)
 * refuses for issue 31: a claim served by a target other than the one selected, and a results folder that holds
 * another attacker's configuration. Real loopback target, real IndexedDB (fake-indexeddb).
 */
import 'fake-indexeddb/auto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseClaimFile } from '../../../claims'
import { ATTACKER_CONFIG_FILE, dumpFile, joinPath } from '../../../core/results'
import { CHATBOT_FOREST } from '../../../core/tags'
import { createTargetServer, type RunningTargetServer } from '../../../servers/target'
import { referenceTargetOptions } from '../../../reference-targets'
import { draftFromClaimFile } from '../setup/claimDraft'
import { servedOrigin } from '../setup/servedClaim'
import { defaultSetup, type Setup } from '../setup/setupTypes'
import { buildRun } from './buildRun'
import { resultsStorage } from '../../../lib/browserResults'

let target: RunningTargetServer
beforeAll(async () => {
  target = await createTargetServer(referenceTargetOptions('chatbot')).listen(0)
})
afterAll(async () => {
  await target.close()
})

function setupWith(patch: (s: Setup) => void): Setup {
  const s = defaultSetup()
  const file = parseClaimFile(readFileSync('public/claims/chatbot-secret-leak.json', 'utf8'), 'x')
  s.claim = draftFromClaimFile({ ...file, tasks: file.tasks.slice(0, 1) }, 'x')
  s.target = { ...s.target, kind: 'http', httpUrl: target.url }
  s.attacker.templates = [{ id: 'a', name: 'small talk', text: 'Hello, have a nice day.', on: true }]
  patch(s)
  return s
}

const secrets = { targetToken: '', openaiKey: '', genericSecret: '', attackerKey: '', judgeKey: '' }
const env = () => ({ fetch: globalThis.fetch, origin: 'http://127.0.0.1', signal: new AbortController().signal })
const user = [{ scope: ['user'], readOnly: [] }]

describe('buildRun refuses', () => {
  it('a claim served by another target than the one selected, naming both; the same served claim on its own target builds', async () => {
    const elsewhere = 'http://127.0.0.1:9'
    const servedBy = (url: string) => (s: Setup) => {
      s.claim = {
        ...s.claim,
        origin: servedOrigin(url),
        tasks: s.claim.tasks.map((t) => ({ ...t, evaluator: { ...t.evaluator, type: 'served', servedTask: '1' } })),
      }
    }
    await expect(buildRun(setupWith(servedBy(elsewhere)), secrets, CHATBOT_FOREST, user, env())).rejects.toThrow(
      `Claim: its tasks are served by ${elsewhere}, but the target selected is ${target.url}: select that target again, use the selected target’s own claim, or pick another claim.`,
    )
    await expect(
      buildRun(
        setupWith((s) => {
          servedBy(target.url)(s)
          s.target.kind = 'demo'
        }),
        secrets,
        CHATBOT_FOREST,
        user,
        env(),
      ),
    ).rejects.toThrow(`Claim: its tasks are served by ${target.url}, but the target selected is the demo chatbot`)
    // On the target it was served by, it builds (were that server to serve no such task, its first run would say so).
    expect((await buildRun(setupWith(servedBy(target.url)), secrets, CHATBOT_FOREST, user, env())).controllers).toHaveLength(1)
    // A claim loaded from a server whose tasks were all rewritten into redscope's own is the user's: it runs anywhere.
    expect(
      (
        await buildRun(
          setupWith((s) => {
            s.claim = { ...s.claim, origin: servedOrigin(elsewhere) }
          }),
          secrets,
          CHATBOT_FOREST,
          user,
          env(),
        )
      ).controllers,
    ).toHaveLength(1)
  })

  it('a results folder holding another attacker configuration (unless finished tasks are rerun)', async () => {
    const built = await buildRun(
      setupWith(() => {}),
      secrets,
      CHATBOT_FOREST,
      user,
      env(),
    )
    const dir = built.controllers[0].label
    expect(dir).toMatch(/^template-[0-9a-f]{8}__redscope-chatbot__chatbot-secret-leak__no-llm-[0-9a-f]{8}$/)
    // What an older version, or the one label two configurations share, would leave there.
    const storage = resultsStorage()
    await storage.writeTextAtomic(joinPath(dir, 'manifest.json'), dumpFile({ experiment: { scope: ['user'], read_only: [] } }))
    await storage.writeTextAtomic(
      joinPath(dir, ATTACKER_CONFIG_FILE),
      dumpFile({ schema_version: 5, config: { kind: 'template', templates: ['{goal}'], inject_on: 'pre' } }),
    )
    await expect(
      buildRun(
        setupWith(() => {}),
        secrets,
        CHATBOT_FOREST,
        user,
        env(),
      ),
    ).rejects.toThrow(
      new RegExp(
        `^Attacker: ${dir} holds the results of another attacker configuration: it holds template, 1 payload \\("\\{goal\\}"\\).*` +
          'this run asks for template, 1 payload \\("Hello, have a nice day\\."\\).*Tick “Rerun finished tasks” to replace those results',
      ),
    )
    const rerun = await buildRun(
      setupWith((s) => {
        s.threat.overwrite = true
      }),
      secrets,
      CHATBOT_FOREST,
      user,
      env(),
    )
    expect(rerun.controllers[0].label).toBe(dir)
  })
})
