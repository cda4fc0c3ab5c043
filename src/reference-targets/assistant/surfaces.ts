/** The assistant's controllables, observables and specs: built once per domain, shared by its instances. */
import { controllable, observable, type ConfigSpec, type Controllable, type Observable, type QuerySpec } from '../../core/engine'
import { buildDomain, type SecurityDomain } from '../../core/tags'
import { ASSISTANT_FOREST } from './forest'
import { STORES, type Store } from './world'

export const TOOL_CALLS: Readonly<Record<Store, string>> = {
  inbox: 'read_inbox()',
  calendar: "list_calendar_events(day='today')",
  drive: 'list_drive_files()',
  bank_account: 'get_transactions()',
}

const STORE_CONTROLLABLES: Readonly<Record<Store, [string, string]>> = {
  inbox: ['inbox_email', 'an email that lands in the inbox before the assistant reads it (leading From:/Subject: lines set its headers)'],
  calendar: ['calendar_event', 'an invitation that lands in the calendar before the assistant reads it'],
  drive: ['drive_file', 'a document shared into the drive before the assistant lists it'],
  bank_account: ['bank_transaction', 'a payment with a memo that lands in the account before the assistant reads it'],
}

export interface AssistantSurfaces {
  readonly domain: SecurityDomain
  readonly systemPrompt: Controllable
  readonly toolCatalogue: Controllable
  readonly userMessage: Controllable
  readonly store: Readonly<Record<Store, Controllable>>
  readonly modelIdentity: Observable
  readonly userRequest: Observable
  readonly reasoning: Observable
  readonly reply: Observable
  readonly toolCall: Readonly<Record<Store, Observable>>
  readonly toolOutput: Readonly<Record<Store, Observable>>
  readonly action: Readonly<Record<Store, Observable>>
  readonly configSpecs: readonly ConfigSpec[]
  readonly querySpecs: readonly QuerySpec[]
}

function perStore<T>(make: (s: Store) => T): Record<Store, T> {
  return Object.fromEntries(STORES.map((s) => [s, make(s)])) as Record<Store, T>
}

export function assistantSurfaces(): AssistantSurfaces {
  const domain = buildDomain(ASSISTANT_FOREST)
  const tag = (name: string) => domain.get(name)!
  return {
    domain,
    systemPrompt: controllable('system_prompt', tag('system_prompt'), { description: 'the system prompt (an injection replaces it)' }),
    toolCatalogue: controllable('tool_catalogue', tag('tool_catalogue'), {
      description: 'the tool descriptions (an injection is appended to them)',
    }),
    userMessage: controllable('user_message', tag('user'), { description: "the user's request (an injection replaces it)" }),
    store: perStore((s) => controllable(STORE_CONTROLLABLES[s][0], tag(s), { description: STORE_CONTROLLABLES[s][1] })),
    modelIdentity: observable('model_identity', tag('model_identity'), { description: 'which policy or model drives the assistant' }),
    userRequest: observable('user_request', tag('user'), { description: "the user's request as the assistant received it" }),
    reasoning: observable('reasoning', tag('system'), {
      description: "the assistant's trace: what it read, dropped, ignored and decided, and why",
    }),
    reply: observable('assistant_reply', tag('user'), { description: "the assistant's answer to the user" }),
    toolCall: perStore((s) => observable('tool_call', tag(s), { description: 'a tool call the assistant made' })),
    toolOutput: perStore((s) =>
      observable('tool_output', tag(s), { description: "the tool's output as it appears in the assistant's context (after defences)" }),
    ),
    action: perStore((s) =>
      observable('action', tag(s), { description: 'an action the assistant took (email sent, transfer made, file shared)' }),
    ),
    configSpecs: [
      { name: 'defence', securityDomain: tag('system'), description: 'none | delimiters | keyword_filter | strict_filter' },
      { name: 'user_task', securityDomain: tag('user'), description: "the user's request for this task" },
      {
        name: 'policy_model',
        securityDomain: tag('system'),
        description:
          "empty: the deterministic policy; else a model name on an OpenAI-compatible endpoint (key from the server's OPENAI_API_KEY)",
      },
      { name: 'policy_base_url', securityDomain: tag('system'), description: 'the OpenAI-compatible endpoint for policy_model' },
    ],
    querySpecs: [
      { name: 'sent_emails', description: 'emails sent during the last run, as JSON [{to, subject, body}]', params: [] },
      { name: 'transfers', description: 'transfers made during the last run, as JSON [{amount, currency, to_iban, memo}]', params: [] },
      { name: 'shared_files', description: 'files shared during the last run, as JSON [{file, with}]', params: [] },
      {
        name: 'attack_evaluation',
        description: 'a full EvaluationResult (JSON) of the last run against an attacker',
        params: [
          { name: 'goal', description: 'exfiltration | transfer | share' },
          { name: 'recipient', description: "the attacker's email address or IBAN" },
        ],
      },
    ],
  }
}
