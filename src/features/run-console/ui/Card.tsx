import type { ReactNode } from 'react'

/** A numbered, collapsible setup step; the summary line says what is chosen while it is closed. */
export function Card({
  step,
  title,
  summary,
  children,
  defaultOpen = true,
  label,
}: {
  step?: number
  title: string
  summary?: ReactNode
  children: ReactNode
  defaultOpen?: boolean
  label?: string
}) {
  return (
    <details className="rc-card" open={defaultOpen} aria-label={label ?? title}>
      <summary>
        {step === undefined ? null : <span className="rc-step">{step}</span>}
        <h2 className="rc-card__title">{title}</h2>
        <span className="rc-card__summary">{summary}</span>
      </summary>
      {children}
    </details>
  )
}
