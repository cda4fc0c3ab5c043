import { useId, type ReactNode } from 'react'

interface FieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  hint?: ReactNode
  issue?: string | null
  placeholder?: string
  type?: 'text' | 'password' | 'url' | 'number'
  multiline?: number
  mono?: boolean
  className?: string
  autoComplete?: string
}

/** A labelled text input (or textarea) with its problem beside it. */
export function Field({
  label,
  value,
  onChange,
  hint,
  issue,
  placeholder,
  type = 'text',
  multiline,
  mono,
  className,
  autoComplete,
}: FieldProps) {
  const id = useId()
  const issueId = `${id}-issue`
  const common = {
    id,
    value,
    placeholder,
    spellCheck: false,
    className: `rc-input${mono ? ' rc-input--mono' : ''}`,
    'aria-invalid': issue ? true : undefined,
    'aria-describedby': issue ? issueId : undefined,
  }
  return (
    <div className={`rc-field ${className ?? ''}`}>
      <label className="rc-label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={multiline} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete ?? 'off'} onChange={(e) => onChange(e.target.value)} />
      )}
      {issue ? (
        <span id={issueId} className="rc-issue" role="alert">
          {issue}
        </span>
      ) : hint ? (
        <span className="rc-hint">{hint}</span>
      ) : null}
    </div>
  )
}
