interface Props {
  readonly title: string
  readonly error: unknown
}

/** A failure named with what and where (the reader's errors carry the file path). */
export function ErrorBox({ title, error }: Props) {
  const message = error instanceof Error ? error.message : String(error)
  return (
    <div className="results-error" role="alert">
      <strong>{title}</strong>
      <pre>{message}</pre>
    </div>
  )
}
