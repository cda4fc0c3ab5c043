import { useSyncExternalStore } from 'react'

/** The clock, ticking once a second while `live` (elapsed times); frozen otherwise. */
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | null = null
let now = Date.now()

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  now = Date.now()
  timer ??= setInterval(() => {
    now = Date.now()
    for (const l of listeners) l()
  }, 1000)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  }
}

const noSubscribe = () => () => {}

export function useNow(live: boolean): number {
  return useSyncExternalStore(live ? subscribe : noSubscribe, () => now)
}
