/** What the console does, shown until the first run of this page. */
export function EmptyState() {
  return (
    <section className="rc-empty" aria-label="How a run works">
      <h2 className="rc-h2">Run a threat model against a live target</h2>
      <ol>
        <li>
          <strong>Target</strong>: a built-in demo, any Target-over-HTTP server, an OpenAI-compatible chat API or any JSON HTTP endpoint.
        </li>
        <li>
          <strong>Claim</strong>: what the attacker tries (goals) and how success is judged (evaluators).
        </li>
        <li>
          <strong>Attacker</strong>: escalating payload templates, an LLM that learns from feedback, a replay of a recorded run, or you.
        </li>
        <li>
          <strong>Budget</strong>: runs, cost and time per task; models and keys (kept in this tab only).
        </li>
        <li>
          <strong>Threat model</strong>: what the attacker may write and read, from the designer’s scope.
        </li>
      </ol>
      <p className="rc-muted">
        Progress shows here live; every run is saved in this browser in superred’s results format, ready for the viewer or as a zip.
      </p>
    </section>
  )
}
