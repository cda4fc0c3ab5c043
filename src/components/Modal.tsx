import type { ReactNode } from 'react'

/** A native modal dialog, open while mounted; Escape or the caller's button closes it. */
export function Modal({ label, onClose, children }: { label: string; onClose: () => void; children: ReactNode }) {
  return (
    <dialog
      className="rc-modal"
      aria-label={label}
      onClose={onClose}
      ref={(el) => {
        if (el && !el.open) el.showModal()
      }}
    >
      {children}
    </dialog>
  )
}
