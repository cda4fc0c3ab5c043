import { useRef, type ReactNode } from 'react'

/**
 * A small dropdown on <details>: keyboard reachable, closes after a choice.
 * Items are buttons (or file inputs) passed as children.
 */
export function Menu({ label, children, className = '' }: { label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDetailsElement>(null)
  return (
    <details
      ref={ref}
      className={`menu ${className}`}
      onClick={(e) => {
        const el = e.target as HTMLElement
        if (el.closest('.menu__item') && !el.closest('.menu__keep')) ref.current?.removeAttribute('open')
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') ref.current?.removeAttribute('open')
      }}
    >
      <summary className="btn menu__button">{label}</summary>
      <div className="menu__list" role="group" aria-label={label}>
        {children}
      </div>
    </details>
  )
}
