import { derivedAttackerLabel, describeAttackerConfig, type AttackerConfig } from '../../../core/results'
import { ValueView } from '../common/ValueView'

/**
 * The experiment's attacker as results record it (attacker_config.json): a line a person reads, then every
 * field, each value as text (payloads are adversarial content). A tree without the file says so: its verdict
 * cannot say which payloads or model produced it beyond the label.
 */
export function AttackerConfigView({ label, config, dir }: { label: string; config: AttackerConfig | null; dir: string }) {
  if (config === null) {
    return (
      <p className="exp-attacker" data-testid="attacker-config">
        Attacker <strong>{label}</strong>: this tree does not record its configuration (written by superred or an older redscope), only its
        label.
      </p>
    )
  }
  const derived = derivedAttackerLabel(config) === label
  return (
    <details className="exp-attacker" data-testid="attacker-config">
      <summary>
        Attacker <strong>{label}</strong> ({derived ? 'label derived from this configuration' : 'label named by the user'}):{' '}
        {describeAttackerConfig(config)}
      </summary>
      <dl className="exp-attacker__fields">
        {Object.entries(config).map(([key, value]) => (
          <div key={key} className="exp-attacker__field">
            <dt>{key}</dt>
            <dd>
              {typeof value === 'string' && value.length <= 80 && !value.includes('\n') ? (
                <code>{value}</code>
              ) : (
                <ValueView label={key} value={value} fileStem={`${dir}-attacker-${key}`} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  )
}
