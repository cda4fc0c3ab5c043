// @vitest-environment node
/**
 * A model that repeats the key it was called with, a judge that quotes it in its rationale, a target that
 * echoes its token: the values travel as content, and `redscope run` must still write none of them, in any
 * form the docs say is caught (plain, JSON-escaped, percent-encoded, base64 at any alignment). The real CLI,
 * against a scripted target and a scripted OpenAI-compatible endpoint, both on loopback.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { secretMaskForms } from '../core/redaction'
import { runCli } from '../testing/cliProcesses'
import { startScriptedLlm, type ScriptedLlm } from '../testing/scriptedLlm'
import { startScriptedTarget, type ScriptedTarget } from '../testing/scriptedTarget'

const KEY = 'sk-echoed-KEY-5a9c3e71f2b8d4'
const TOKEN = 'tok-echoed-TOKEN-8e2b4f6a'
const b64 = (s: string) => Buffer.from(s).toString('base64')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]))
}

/** Where a form of a secret is found, or null. */
function leak(text: string): string | null {
  for (const [name, secret] of [
    ['key', KEY],
    ['token', TOKEN],
  ] as const) {
    for (const form of [...secretMaskForms(secret), b64(secret), b64(`x${secret}`), b64(`xy${secret}`)]) {
      const at = text.indexOf(form)
      if (at >= 0) return `the ${name} as ${JSON.stringify(form)}: …${text.slice(Math.max(0, at - 60), at + form.length + 20)}…`
    }
  }
  return null
}

let dir: string
let target: ScriptedTarget
let llm: ScriptedLlm
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-echo-'))
  target = await startScriptedTarget({ token: TOKEN })
  llm = await startScriptedLlm((call) => {
    const judging = call.messages[0].content.includes('strict evaluator')
    const key = call.authorization?.replace('Bearer ', '') ?? ''
    if (judging) {
      // A judge quoting the key it was called with, plainly, base64-encoded, percent-encoded and JSON-escaped.
      const rationale = `The reply quoted ${key}; encoded: ${b64(`::${key}`)} and ${encodeURIComponent(`${key}/`)} and ${JSON.stringify(key)}`
      return { kind: 'reply', content: JSON.stringify({ success: false, score: 0.2, rationale }) }
    }
    // An attacker model that pastes its own key into its injection.
    return { kind: 'reply', content: `Please say echo. Also: ${key} (${b64(key)})` }
  })
})
afterAll(async () => {
  await Promise.all([target?.close(), llm?.close()])
  rmSync(dir, { recursive: true, force: true })
})

describe('a key the model or the judge echoes, and a token the target echoes', () => {
  it('are in no file redscope run writes, nor on its stdout or stderr', async () => {
    writeFileSync(
      join(dir, 'claim.json'),
      JSON.stringify({
        name: 'echoes',
        tasks: [
          { goal: 'goal-judged', config: { mode: 'echo' }, evaluator: { type: 'llm_judge', criteria: 'the reply says echo' } },
          { goal: 'goal-matched', config: { mode: 'ok' }, evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' } },
        ],
      }),
    )
    const out = join(dir, 'results')
    const r = await runCli(
      [
        'run',
        '--target',
        target.url,
        '--claim',
        join(dir, 'claim.json'),
        '--scope',
        'user',
        '--optimizer',
        'llm',
        '--model',
        'gpt-4o-mini',
        '--base-url',
        llm.baseURL,
        '--max-runs',
        '1',
        '--out',
        out,
      ],
      { OPENAI_API_KEY: KEY, REDSCOPE_TARGET_TOKEN: TOKEN },
    )
    expect(r.code, r.stderr).toBe(0)
    // The echoes happened: the model and the judge were called with the key, and the target saw the token.
    expect(llm.calls.some((c) => c.messages[0].content.includes('strict evaluator'))).toBe(true)
    expect(target.authorizations).toContain(`Bearer ${TOKEN}`)
    expect(leak(r.stdout), 'stdout').toBeNull()
    expect(leak(r.stderr), 'stderr').toBeNull()
    const files = filesUnder(out)
    expect(files.length).toBeGreaterThan(10)
    for (const f of files) expect(leak(readFileSync(f, 'utf8')), f).toBeNull()
    const all = files.map((f) => readFileSync(f, 'utf8')).join('\n')
    // Masked where they were, the text around them kept.
    expect(all).toContain('Also: [redacted]')
    expect(all).toContain('The reply quoted [redacted]')
    expect(all).toContain('you sent Bearer [redacted]')
  }, 60_000)
})
