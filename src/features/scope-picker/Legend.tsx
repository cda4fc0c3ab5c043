/** The three states of a tag, in colour and in words, and what a click does. */
export function Legend() {
  return (
    <div className="legend" aria-label="Legend">
      <p className="muted">
        Click a tag on the canvas (in <strong>Pick scope</strong> mode) or its access label to cycle it:
      </p>
      <ul className="legend__states">
        <li>
          <span className="legend__swatch legend__swatch--none" aria-hidden="true" /> not granted
        </li>
        <li>
          <span className="legend__swatch legend__swatch--scope" aria-hidden="true" /> read &amp; write (scope)
        </li>
        <li>
          <span className="legend__swatch legend__swatch--read_only" aria-hidden="true" /> read only
        </li>
      </ul>
      <p className="muted">
        A granted tag covers its subtree: shaded <span className="legend__inline legend__inline--write">writable</span> or{' '}
        <span className="legend__inline legend__inline--read">visible only</span>.
      </p>
    </div>
  )
}
