/**
 * Messages for the user that are not tied to one tag: an import that failed
 * (naming the line or field), a link that could not be opened, an export that
 * worked. Shown in a live region, never as a modal.
 */
import { createStore, useStore } from 'zustand'

export interface Notice {
  id: number
  kind: 'error' | 'info'
  text: string
}

interface NoticeState {
  notices: readonly Notice[]
  push: (kind: Notice['kind'], text: string) => void
  dismiss: (id: number) => void
}

let next = 1

export const noticeStore = createStore<NoticeState>()((set) => ({
  notices: [],
  // One message per kind at a time: a newer one replaces the older.
  push: (kind, text) => set((s) => ({ notices: [...s.notices.filter((n) => n.kind !== kind), { id: next++, kind, text }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}))

export const notify = (kind: Notice['kind'], text: string) => noticeStore.getState().push(kind, text)

export function useNotices(): readonly Notice[] {
  return useStore(noticeStore, (s) => s.notices)
}
