import { useDesigner } from '../../stores/designerStore'
import { SHORTCUTS } from './shortcuts'

/** The shortcut sheet, from the same registry the keyboard handler runs. */
export function ShortcutHelp() {
  const open = useDesigner((s) => s.helpOpen)
  const toggle = useDesigner((s) => s.toggleHelp)
  if (!open) return null
  return (
    <section className="shortcut-help" aria-label="Keyboard shortcuts">
      <header className="shortcut-help__head">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="icon-btn" aria-label="Close shortcuts" onClick={toggle}>
          ×
        </button>
      </header>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.id} className="shortcut-help__row">
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
        <div className="shortcut-help__row">
          <dt>
            <kbd>Double-click</kbd>
          </dt>
          <dd>Rename a tag in place</dd>
        </div>
        <div className="shortcut-help__row">
          <dt>
            <kbd>Shift+drag</kbd>
          </dt>
          <dd>Select several tags with a box</dd>
        </div>
        <div className="shortcut-help__row">
          <dt>
            <kbd>Drag a tag</kbd>
          </dt>
          <dd>Onto another tag: make it its child; onto empty canvas: make it a root</dd>
        </div>
      </dl>
    </section>
  )
}
