/**
 * The seed each answer is sampled with. A request's own `seed` wins. Else,
 * with a server seed (`serve-llm --seed N`), the seed is derived from the
 * server seed and the request's content (messages and sampling options; not
 * the model name, not whether it streams), so a rerun of the same requests
 * gets the same answers whatever order they arrive in. Else a fresh random
 * seed: a stochastic model, as a hosted one is. The seed is sent back in
 * the `x-redscope-seed` header, so any one answer can be reproduced.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { EngineMessage, JsonConstraint } from './chatEngine'

export interface SeedInputs {
  readonly messages: readonly EngineMessage[]
  readonly temperature: number
  readonly topP?: number
  readonly maxTokens?: number
  readonly stop: readonly string[]
  readonly frequencyPenalty?: number
  readonly presencePenalty?: number
  readonly json?: JsonConstraint
}

/** Any integer as an unsigned 32-bit one (its value modulo 2^32), as llama.cpp's sampler takes it. */
export function toSeed32(seed: number): number {
  return Number(BigInt.asUintN(32, BigInt(Math.trunc(seed))))
}

export function derivedSeed(serverSeed: number, inputs: SeedInputs): number {
  const canonical = JSON.stringify([
    inputs.messages.map((m) => [m.role, m.content]),
    inputs.temperature,
    inputs.topP ?? null,
    inputs.maxTokens ?? null,
    inputs.stop,
    inputs.frequencyPenalty ?? null,
    inputs.presencePenalty ?? null,
    // Only when given, so that the seeds of requests without a response format stay what they were.
    ...(inputs.json !== undefined ? [inputs.json] : []),
  ])
  return createHash('sha256')
    .update(`${toSeed32(serverSeed)}\n${canonical}`)
    .digest()
    .readUInt32BE(0)
}

export function requestSeed(requested: number | undefined, serverSeed: number | undefined, inputs: SeedInputs): number {
  if (requested !== undefined) return toSeed32(requested)
  if (serverSeed !== undefined) return derivedSeed(serverSeed, inputs)
  return randomBytes(4).readUInt32BE(0)
}
