import { describe, expect, it } from 'vitest'
import { DEFAULT_INJECT_ON, DEFAULT_LLM_ATTACKER } from '../core/defaults'
import { derivedAttackerLabel } from '../core/results'
import { humanAttackerConfig, llmAttackerConfig, recordedApiBase, replayAttackerConfig, templateAttackerConfig } from './attackerConfigs'
import { DEFAULT_MAX_TURNS, LLM_ATTACKER_SYSTEM_PROMPT } from './llmOptimizer'

describe("the attackers' recorded configurations", () => {
  it('resolve every default, so an attacker given its defaults and one given nothing are the same attacker', () => {
    expect(templateAttackerConfig({ templates: ['{goal}'] })).toEqual(
      templateAttackerConfig({ templates: ['{goal}'], injectOn: DEFAULT_INJECT_ON.template }),
    )
    const llm = llmAttackerConfig({ model: 'm', apiBase: null })
    expect(llm).toEqual({
      kind: 'llm',
      model: 'm',
      api_base: null,
      inject_on: 'both',
      temperature: DEFAULT_LLM_ATTACKER.temperature,
      max_tokens: DEFAULT_LLM_ATTACKER.maxTokens,
      history_runs: DEFAULT_LLM_ATTACKER.historyRuns,
      system_prompt: LLM_ATTACKER_SYSTEM_PROMPT,
      max_turns: DEFAULT_MAX_TURNS,
    })
    expect(derivedAttackerLabel(llmAttackerConfig({ model: 'm', apiBase: null, temperature: 0.2 }))).not.toBe(derivedAttackerLabel(llm))
    expect(humanAttackerConfig()).toEqual({ kind: 'human' })
  })

  it("record an endpoint without credentials, query or trailing slash, and OpenAI's own as none", () => {
    expect(recordedApiBase('https://api.openai.com/v1/')).toBeNull()
    expect(recordedApiBase('  ')).toBeNull()
    expect(recordedApiBase('http://user:pw@127.0.0.1:8000/v1/?key=sk-1#x')).toBe('http://127.0.0.1:8000/v1')
    expect(recordedApiBase('not a url?token=1')).toBe('not a url')
  })

  it('record a replayed run by its source and its answers, declines included', () => {
    expect(
      replayAttackerConfig(
        [
          { controllable: 'user', value: 'hi' },
          { controllable: 'tool', value: null },
        ],
        'EXP/tasks/00001__g',
      ),
    ).toEqual({
      kind: 'replay',
      source: 'EXP/tasks/00001__g',
      answers: [
        { controllable: 'user', value: 'hi' },
        { controllable: 'tool', value: null },
      ],
    })
  })
})
