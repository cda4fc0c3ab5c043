/**
 * The generic HTTP endpoint target, as data: a request template (method,
 * URL, headers, a JSON body with `{{field}}` placeholders), the fields that
 * fill it (each attacker-controllable or set by the claim's config, each
 * tagged with its security domain), and the outputs read back from the JSON
 * answer by JSONPath (each tagged too; an output may be controllable after
 * the call, like a model response the attacker rewrites). Parsed with zod so
 * the form can show every problem as it is typed.
 */
import { z } from 'zod'
import { ForestSchema, type Forest } from '../../core/tags'

const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and _ only, not starting with a digit')

export const FieldSchema = z.object({
  name: identifier,
  role: z.enum(['controllable', 'config']),
  securityDomain: z.string().min(1, 'pick the tag this field belongs to'),
  description: z.string().default(''),
  /** The value sent when neither the attacker nor the claim's config sets one. */
  default: z.string().default(''),
})

export const OutputSchema = z.object({
  name: identifier,
  /** JSONPath into the answer, e.g. `$.choices[0].message.content`. */
  path: z.string().min(1, 'a JSONPath such as $.reply'),
  securityDomain: z.string().min(1, 'pick the tag this output belongs to'),
  description: z.string().default(''),
  /** The attacker may replace it after the call (a post-call controllable). */
  controllable: z.boolean().default(false),
})

export const HeaderSchema = z.object({
  name: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'),
  value: z.string().refine((v) => !/[\r\n]/.test(v), 'no line breaks in a header value'),
})

export const GenericHttpSpecSchema = z
  .object({
    name: z.string().trim().min(1).default('http-endpoint'),
    method: z.enum(['POST', 'PUT', 'PATCH', 'GET']),
    url: z.string().refine((u) => {
      try {
        return ['http:', 'https:'].includes(new URL(u.replace(/\{\{\w+\}\}/g, 'x')).protocol)
      } catch {
        return false
      }
    }, 'an http(s) URL'),
    headers: z.array(HeaderSchema).default([]),
    /** Sent as the secret value of this header (an API key); the value itself lives with the session's keys. */
    authHeader: z.string().default('Authorization'),
    bodyTemplate: z.string().default(''),
    fields: z.array(FieldSchema).default([]),
    outputs: z.array(OutputSchema).min(1, 'read at least one output (the reply) from the answer'),
    forest: ForestSchema,
    maxRetries: z.number().int().min(0).max(10).default(3),
    maxRetryWaitS: z.number().min(0).max(600).default(30),
  })
  .superRefine((spec, ctx) => {
    const tags = new Set(spec.forest.tags.map((t) => t.name))
    const names = new Set<string>()
    const check = (list: 'fields' | 'outputs', i: number, name: string, domain: string) => {
      if (names.has(name)) ctx.addIssue({ code: 'custom', path: [list, i, 'name'], message: `"${name}" is used twice` })
      names.add(name)
      if (domain !== '' && !tags.has(domain))
        ctx.addIssue({ code: 'custom', path: [list, i, 'securityDomain'], message: `"${domain}" is not a tag of the forest` })
    }
    spec.fields.forEach((f, i) => check('fields', i, f.name, f.securityDomain))
    spec.outputs.forEach((o, i) => check('outputs', i, o.name, o.securityDomain))
    const fields = new Set(spec.fields.map((f) => f.name))
    for (const [where, text] of [
      ['url', spec.url],
      ['bodyTemplate', spec.bodyTemplate],
      ...spec.headers.map((h, i) => [`headers.${i}`, h.value]),
    ] as const) {
      for (const m of text.matchAll(/\{\{(\w+)\}\}/g)) {
        if (!fields.has(m[1]))
          ctx.addIssue({ code: 'custom', path: where.split('.'), message: `{{${m[1]}}} is not a field: add a field named ${m[1]}` })
      }
    }
    if (spec.method !== 'GET' && spec.bodyTemplate.trim() !== '') {
      const sample = fillJsonTemplate(spec.bodyTemplate, Object.fromEntries(spec.fields.map((f) => [f.name, 'x'])))
      try {
        JSON.parse(sample)
      } catch (e) {
        ctx.addIssue({
          code: 'custom',
          path: ['bodyTemplate'],
          message: `not JSON once filled in (${(e as Error).message}); put placeholders inside strings: "{{user_message}}"`,
        })
      }
    }
  })

export type GenericHttpSpec = z.infer<typeof GenericHttpSpecSchema>
export type GenericHttpSpecInput = z.input<typeof GenericHttpSpecSchema>

/** `{{name}}` → the value escaped for the inside of a JSON string (so `"{{x}}"` stays valid JSON whatever x holds). */
export function fillJsonTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? JSON.stringify(values[name]).slice(1, -1) : whole))
}

/** `{{name}}` in a URL → the value, percent-encoded. */
export function fillUrlTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? encodeURIComponent(values[name]) : whole))
}

/** `{{name}}` in a header value → the value with line breaks removed (no header injection). */
export function fillHeaderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? values[name].replace(/[\r\n]+/g, ' ') : whole))
}

/** A spec to start from: an OpenAI-style chat endpoint over the chatbot forest. */
export function exampleGenericSpec(forest: Forest): GenericHttpSpecInput {
  const has = (n: string) => forest.tags.some((t) => t.name === n)
  const first = forest.tags[0]?.name ?? ''
  return {
    name: 'chat-endpoint',
    method: 'POST',
    url: 'http://127.0.0.1:8000/v1/chat/completions',
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    authHeader: 'Authorization',
    bodyTemplate:
      '{\n  "model": "{{model}}",\n  "messages": [\n    {"role": "system", "content": "{{system_prompt}}"},\n    {"role": "user", "content": "{{user_message}}"}\n  ]\n}',
    fields: [
      {
        name: 'model',
        role: 'config',
        securityDomain: has('model_identity') ? 'model_identity' : first,
        description: 'the model name',
        default: 'gpt-4o-mini',
      },
      {
        name: 'system_prompt',
        role: 'controllable',
        securityDomain: has('system_prompt') ? 'system_prompt' : first,
        description: 'the system prompt',
        default: 'You are a helpful assistant.',
      },
      {
        name: 'user_message',
        role: 'controllable',
        securityDomain: has('user') ? 'user' : first,
        description: "the user's message",
        default: 'Hello!',
      },
    ],
    outputs: [
      {
        name: 'reply',
        path: '$.choices[0].message.content',
        securityDomain: has('user') ? 'user' : first,
        description: "the model's reply",
        controllable: false,
      },
    ],
    forest,
    maxRetries: 3,
    maxRetryWaitS: 30,
  }
}
