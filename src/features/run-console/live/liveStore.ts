/**
 * The run in progress (or the last one), for the dashboard. Only the runner
 * writes here: `begin` when it starts, `apply` once per frame with the
 * reporter's events, `end` when runAll returns. Totals are selectors.
 */
import { create } from 'zustand'
import { applyEvents } from './liveReducer'
import type { LiveEvent, RunSession, SessionState } from './liveTypes'

interface LiveState {
  readonly session: RunSession | null
  readonly actions: {
    begin(session: RunSession): void
    apply(events: readonly LiveEvent[]): void
    setState(state: SessionState, error?: string | null, now?: number): void
    clear(): void
  }
}

export const useLiveStore = create<LiveState>()((set) => ({
  session: null,
  actions: {
    begin: (session) => set({ session }),
    apply: (events) => set((s) => (s.session === null ? s : { session: applyEvents(s.session, events) })),
    setState: (state, error = null, now = Date.now()) =>
      set((s) =>
        s.session === null
          ? s
          : {
              session: {
                ...s.session,
                state,
                error: error ?? s.session.error,
                endedAt: state === 'running' || state === 'cancelling' ? null : now,
              },
            },
      ),
    clear: () => set({ session: null }),
  },
}))

export const liveActions = () => useLiveStore.getState().actions
