import type { Event } from '../core/engine'

/** Which pauses an attacker answers with an injection: pre-calls, post-calls or both. */
export type InjectOn = 'pre' | 'post' | 'both'
export const INJECT_ON: readonly InjectOn[] = ['pre', 'post', 'both']

export function isInjectOn(value: string): value is InjectOn {
  return (INJECT_ON as readonly string[]).includes(value)
}

export function injectsAt(on: InjectOn, event: Event): boolean {
  if (event.type === 'ControllablePreCallEvent') return on !== 'post'
  if (event.type === 'ControllablePostCallEvent') return on !== 'pre'
  return false
}
