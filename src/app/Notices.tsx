import { noticeStore, useNotices } from '../stores/noticeStore'

/** Messages not tied to one tag, in live regions: errors are alerts, the rest polite status. */
export function Notices() {
  const notices = useNotices()
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice--${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <span className="notice__text">{n.text}</span>
          <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => noticeStore.getState().dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
