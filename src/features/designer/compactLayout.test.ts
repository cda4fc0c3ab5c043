import type { Forest } from '../../core/tags'
import { CHATBOT_FOREST } from '../../core/tags'
import {
  COMPACT_HEIGHT,
  layoutForest,
  nameWidth,
  NAME_FONT_PX,
  tagSize,
  TAG_NODE_HEIGHT,
  TAG_NODE_WIDTH,
  type TagBox,
} from '../../core/layout/forestLayout'
import { chooseDensity, fitViewport, LEGIBLE_FONT_PX, LEGIBLE_ZOOM } from './densityChoice'

const t = (name: string, parent: string | null) => ({ name, parent, description: `what ${name} grants` })
/** The 32 tags of superred-target-agentdojo 0.1.0 (agentdojo_target/security_tags.py), in its order. */
const AGENTDOJO_32: Forest = {
  tags: [
    t('system', null),
    t('system_prompt', 'system'),
    t('tool_catalogue', 'system'),
    t('tool_catalogue_add', 'tool_catalogue'),
    t('tool_catalogue_edit', 'tool_catalogue'),
    t('tool_catalogue_remove', 'tool_catalogue'),
    t('model_identity', 'system'),
    t('detailed_system_specification', 'system'),
    t('agent_trace', 'system'),
    t('agent_trace_messages', 'agent_trace'),
    t('user', null),
    t('tools', null),
    t('banking', 'tools'),
    t('banking_bank_account', 'banking'),
    t('banking_filesystem', 'banking'),
    t('banking_user_account', 'banking'),
    t('workspace', 'tools'),
    t('workspace_inbox', 'workspace'),
    t('workspace_calendar', 'workspace'),
    t('workspace_cloud_drive', 'workspace'),
    t('slack', 'tools'),
    t('slack_slack', 'slack'),
    t('slack_web', 'slack'),
    t('travel', 'tools'),
    ...['hotels', 'restaurants', 'car_rental', 'flights', 'user', 'calendar', 'reservation', 'inbox'].map((s) =>
      t(`travel_${s}`, 'travel'),
    ),
  ],
}
/** The designer's canvas at 1280x720. */
const PANE = { width: 759, height: 608 }
const itemsOf = (f: Forest) => f.tags.map((tag) => ({ id: tag.name, parent: tag.parent, name: tag.name }))

function expectNoOverlap(boxes: TagBox[]) {
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]]
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
      expect(apart, `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`).toBe(true)
    }
}

describe('the compact density', () => {
  it('sizes a tag to its name: one line, as wide as the name plus its chrome, wide characters counted twice', () => {
    expect(tagSize('system', 'normal')).toEqual({ width: TAG_NODE_WIDTH, height: TAG_NODE_HEIGHT })
    // A full tag is never narrower than its name either: the long one widens its tag instead of being cut.
    expect(tagSize('detailed_system_specification', 'normal').width).toBeGreaterThan(nameWidth('detailed_system_specification') + 20)
    const long = tagSize('detailed_system_specification', 'compact')
    expect(long.height).toBe(COMPACT_HEIGHT)
    // 29 monospace characters at 0.6 em are 226 px: the name's box holds all of them.
    expect(nameWidth('detailed_system_specification')).toBeGreaterThanOrEqual(Math.ceil(29 * 0.6 * NAME_FONT_PX))
    expect(long.width).toBeGreaterThan(nameWidth('detailed_system_specification'))
    expect(nameWidth('日本')).toBe(nameWidth('abcd'))
    expect(tagSize('a', 'compact').width).toBeLessThan(long.width)
  })

  it('never overlaps two tags, in either direction and density, for the AgentDojo forest and a deep random one', () => {
    const random: Forest = {
      tags: Array.from({ length: 80 }, (_, i) =>
        t(
          `${'x'.repeat(1 + ((i * 7) % 23))}${i}`,
          i ? `${'x'.repeat(1 + ((Math.floor((i - 1) / 3) * 7) % 23))}${Math.floor((i - 1) / 3)}` : null,
        ),
      ),
    }
    for (const f of [AGENTDOJO_32, random])
      for (const dir of ['down', 'right'] as const)
        for (const density of ['compact', 'normal'] as const) {
          const pos = layoutForest(f, dir, density)
          expect(pos.size).toBe(f.tags.length)
          for (const [name, p] of pos) expect(p.width).toBe(tagSize(name, density).width)
          expectNoOverlap([...pos.values()])
        }
  })

  it('left to right, each column starts past the widest tag of the column before it', () => {
    const pos = layoutForest(AGENTDOJO_32, 'right', 'compact')
    const spec = pos.get('detailed_system_specification')!
    expect(pos.get('agent_trace_messages')!.x).toBeGreaterThan(spec.x + spec.width)
    expect(pos.get('travel_inbox')!.x).toBe(pos.get('agent_trace_messages')!.x)
  })

  it('is chosen for the 32-tag AgentDojo forest at 1280x720, and fits it with names drawn at least 9 px tall', () => {
    const choice = chooseDensity(itemsOf(AGENTDOJO_32), 'down', PANE)
    expect(choice).toEqual({ density: 'compact', direction: 'right' })
    const normalZoom = fitViewport(layoutForest(AGENTDOJO_32, 'down'), 'normal', PANE, 0).zoom
    expect(normalZoom * NAME_FONT_PX).toBeLessThan(LEGIBLE_FONT_PX)
    const zoom = fitViewport(layoutForest(AGENTDOJO_32, choice.direction, choice.density), choice.density, PANE, 0).zoom
    expect(zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM)
    expect(zoom * NAME_FONT_PX).toBeGreaterThanOrEqual(LEGIBLE_FONT_PX)
  })

  it('is not chosen when the normal fit is legible already (the demo chatbot keeps its notes under each tag)', () => {
    expect(chooseDensity(itemsOf(CHATBOT_FOREST), 'down', PANE)).toEqual({ density: 'normal', direction: 'down' })
  })

  it('is not forced on a forest it cannot make legible either: the layout stays as it was', () => {
    const huge: Forest = { tags: Array.from({ length: 400 }, (_, i) => t(`tag${i}`, i ? `tag${Math.floor((i - 1) / 8)}` : null)) }
    expect(chooseDensity(itemsOf(huge), 'down', PANE)).toEqual({ density: 'normal', direction: 'down' })
  })
})
