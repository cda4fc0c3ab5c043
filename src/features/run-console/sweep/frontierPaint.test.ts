import { CHATBOT_FOREST } from '../../../core/tags/templates'
import { winsPerTag } from './frontierPaint'

const counts = (points: { scope: string[]; readOnly: string[] }[]) => Object.fromEntries(winsPerTag(CHATBOT_FOREST, points))

describe('the frontier painted on the forest', () => {
  it('counts a tag written through an ancestor as written, and one only read as read, never both', () => {
    const c = counts([
      { scope: ['user'], readOnly: ['system'] },
      { scope: ['system_prompt'], readOnly: ['system'] },
    ])
    expect(c.user).toEqual({ writes: 1, reads: 0 })
    // system_prompt is written by the second and only read (through system) by the first.
    expect(c.system_prompt).toEqual({ writes: 1, reads: 1 })
    expect(c.model).toEqual({ writes: 0, reads: 2 })
    expect(c.system).toEqual({ writes: 0, reads: 2 })
  })

  it('leaves a tag no point grants at zero, and scope-only points read nothing', () => {
    const c = counts([{ scope: ['system'], readOnly: [] }])
    expect(c.model_identity).toEqual({ writes: 1, reads: 0 })
    expect(c.user).toEqual({ writes: 0, reads: 0 })
  })
})
