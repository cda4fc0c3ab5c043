import { describe, expect, it } from 'vitest'
import {
  AttackerClashError,
  attackerConfig,
  attackerConfigHash,
  derivedAttackerLabel,
  describeAttackerConfig,
  findAttackerClashes,
  readAttackerConfig,
} from './attackerConfig'
import { ATTACKER_CONFIG_FILE, type AttackerConfig } from './format'
import { experimentDirName, identityHash, slugOf, type ExperimentMeta } from './identityHash'
import { MemoryStorage } from './memoryStorage'
import { ExperimentSession } from './writer'

const losing: AttackerConfig = { kind: 'template', templates: ['Hello, have a nice day.'], inject_on: 'pre' }
const winning: AttackerConfig = { kind: 'template', templates: ['{goal}'], inject_on: 'pre' }

const meta = (config: AttackerConfig | null, attacker = config ? derivedAttackerLabel(config) : 'template'): ExperimentMeta => ({
  attacker,
  target: 't',
  claim: 'c',
  model: null,
  scope: ['user'],
  readOnly: [],
  scopeLabel: null,
  taskCostCapUsd: null,
  taskTimeCapS: null,
  maxRunsPerTask: 100,
  includeFeedback: true,
  concurrency: 1,
  nTasks: 1,
  attackerConfig: config,
})

describe("an attacker's configuration", () => {
  it("is not part of superred's identity hash: only the label it derives is", () => {
    const m = meta(losing, 'template')
    expect(identityHash(m)).toBe(identityHash({ ...m, attackerConfig: winning }))
    expect(identityHash(m)).toBe(identityHash({ ...m, attackerConfig: undefined }))
  })

  it('derives a label from the kind and a hash of its canonical JSON: key order does not matter, every value does', () => {
    expect(derivedAttackerLabel(losing)).toMatch(/^template-[0-9a-f]{8}$/)
    expect(derivedAttackerLabel({ inject_on: 'pre', templates: ['{goal}'], kind: 'template' })).toBe(derivedAttackerLabel(winning))
    expect(derivedAttackerLabel(losing)).not.toBe(derivedAttackerLabel(winning))
    expect(derivedAttackerLabel({ ...winning, inject_on: 'both' })).not.toBe(derivedAttackerLabel(winning))
    // The hash of the bytes json.dumps(sort_keys=True, separators=(",",":")) prints (ASCII-escaped).
    expect(attackerConfigHash({ kind: 'x', b: 'é', a: 1 })).toBe(attackerConfigHash({ a: 1, b: '\u00e9', kind: 'x' }))
  })

  it('names a served superred optimizer by its served name, as superred names an optimizer by its factory', () => {
    const pair = {
      kind: 'served-optimizer',
      url: 'http://127.0.0.1:8765/',
      name: 'PAIR Optimizer',
      ref: 'pair:PAIR',
      version: '0.1.0',
      kwargs: { n_iterations: 2 },
      model: null,
    }
    expect(derivedAttackerLabel(pair)).toMatch(/^PAIR_Optimizer-[0-9a-f]{8}$/)
    expect(derivedAttackerLabel({ ...pair, kwargs: { n_iterations: 3 } })).not.toBe(derivedAttackerLabel(pair))
  })

  it("never records a secret, at any depth (a served optimizer's kwargs included)", () => {
    const recorded = attackerConfig({
      kind: 'optimizer',
      package: 'superred-optimizer-pair',
      api_key: 'sk-1',
      kwargs: {
        model: 'gpt-4o',
        apiKey: 'sk-2',
        access_token: 't',
        headers: { Authorization: 'Bearer x' },
        nested: [{ client_secret: 's', n: 3 }],
      },
    })
    expect(recorded).toEqual({ kind: 'optimizer', package: 'superred-optimizer-pair', kwargs: { model: 'gpt-4o', nested: [{ n: 3 }] } })
    expect(describeAttackerConfig(recorded)).toBe(
      'optimizer, package "superred-optimizer-pair", kwargs {model: "gpt-4o", nested: [{n: 3}]}',
    )
  })

  it('reads as one line a person understands', () => {
    expect(describeAttackerConfig(losing)).toBe('template, 1 payload ("Hello, have a nice day."), injected before calls')
    expect(describeAttackerConfig({ kind: 'template', templates: ['a', 'b', 'c', 'd'], inject_on: 'both' })).toBe(
      'template, 4 payloads ("a", "b", "c", … 1 more), injected before and after calls',
    )
    expect(describeAttackerConfig({ kind: 'llm', model: 'm', api_base: null, temperature: 0.7, inject_on: 'post' })).toBe(
      'llm, model m, temperature 0.7, injected after calls',
    )
    expect(describeAttackerConfig({ kind: 'replay', source: 'x/run_00001.json', answers: [{ controllable: 'u', value: 'v' }] })).toBe(
      'replay, of x/run_00001.json, 1 recorded answer',
    )
    expect(describeAttackerConfig({ kind: 'human' })).toBe('human, a person answers each pause')
  })
})

describe('a results folder holding another attacker', () => {
  const goals = ['g']

  it('is never resumed: the session refuses before anything changes, naming both; the same configuration resumes', async () => {
    const storage = new MemoryStorage()
    const forced = (c: AttackerConfig) => meta(c, 'mine')
    const first = await ExperimentSession.open(storage, '', forced(losing), goals)
    await first.abort()
    const dir = experimentDirName(forced(losing))
    expect(await readAttackerConfig(storage, dir)).toEqual(losing)
    const before = new Map(storage.files)

    const refused = ExperimentSession.open(storage, '', forced(winning), goals)
    await expect(refused).rejects.toThrow(AttackerClashError)
    await expect(ExperimentSession.open(storage, '', forced(winning), goals)).rejects.toThrow(
      `${dir} holds the results of another attacker configuration: it holds template, 1 payload ("Hello, have a nice day."), injected before calls [` +
        `${attackerConfigHash(losing).slice(0, 8)}]; this run asks for template, 1 payload ("{goal}"), injected before calls [` +
        `${attackerConfigHash(winning).slice(0, 8)}] (they differ in templates)`,
    )
    expect(storage.files).toEqual(before)

    const again = await ExperimentSession.open(storage, '', forced(losing), goals)
    await again.abort()
    expect(await readAttackerConfig(storage, dir)).toEqual(losing)
  })

  it('nor is a folder that records no configuration; overwrite replaces it and keeps the old record in previous_NN/', async () => {
    const storage = new MemoryStorage()
    const old = await ExperimentSession.open(storage, '', meta(null, 'mine'), goals)
    await old.abort()
    const dir = experimentDirName(meta(null, 'mine'))
    await expect(ExperimentSession.open(storage, '', meta(winning, 'mine'), goals)).rejects.toThrow(
      'it holds no record of its attacker configuration (written by superred or an older redscope)',
    )

    const written = await ExperimentSession.open(storage, '', meta(losing, 'mine'), goals, { overwrite: true })
    await written.abort()
    const replaced = await ExperimentSession.open(storage, '', meta(winning, 'mine'), goals, { overwrite: true })
    await replaced.abort()
    expect(await readAttackerConfig(storage, dir)).toEqual(winning)
    expect(storage.files.has(`${dir}/previous_02/${ATTACKER_CONFIG_FILE}`)).toBe(true)
    expect(await readAttackerConfig(storage, `${dir}/previous_02`)).toEqual(losing)
  })

  it('is found before a run among the folders it would open, and only those', async () => {
    const storage = new MemoryStorage()
    const held = meta(losing, 'mine')
    const other = { ...held, scope: ['system'] }
    for (const m of [held, other]) await (await ExperimentSession.open(storage, '', m, goals)).abort()
    const asked = { ...held, attackerConfig: winning }
    const clashes = await findAttackerClashes(storage, '', {
      slug: slugOf(asked),
      config: winning,
      belongs: (dir) => dir === experimentDirName(asked),
    })
    expect(clashes).toEqual([{ dir: experimentDirName(held), held: losing, asked: winning }])
    expect(await findAttackerClashes(storage, '', { slug: slugOf(asked), config: losing, belongs: () => true })).toEqual([])
    // The belongs test sees each folder's recorded scope (a frontier asks whether the folder is its own for that scope).
    const seen: unknown[] = []
    await findAttackerClashes(storage, '', { slug: slugOf(asked), config: winning, belongs: (_d, e) => (seen.push(e?.scope), false) })
    expect(seen.sort()).toEqual([['system'], ['user']])
  })
})
