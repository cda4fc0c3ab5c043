/**
 * The bridge's hooks for older claim files (`superred_task`, `superred_evaluation`) are plumbing: the manifest
 * names them under its claim, and the view lists them there, never among the target's own config and queries.
 */
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ManifestSchema } from '../../../../protocol'
import { ManifestView } from './ManifestView'

const base = {
  protocol: 'superred-target-http/1',
  name: 'SupportAgent',
  security_domain: [
    { name: 'system', parent: null },
    { name: 'user', parent: null },
  ],
  controllables: [{ name: 'user_message', security_domain: 'user' }],
  observables: [],
  config_specs: [
    { name: 'system_prompt', security_domain: 'system' },
    { name: 'superred_task', security_domain: null },
  ],
  query_specs: [{ name: 'tickets' }, { name: 'superred_evaluation' }],
}
const claim = { name: 'support_claim', tasks: [{ goal: 'leak a ticket' }] }

afterEach(() => cleanup())

describe('ManifestView', () => {
  it('shows a served claim’s hooks under the claim, not as the target’s config and queries', () => {
    const manifest = ManifestSchema.parse({
      ...base,
      claim: { ...claim, hooks: { config: 'superred_task', query: 'superred_evaluation' } },
    })
    render(<ManifestView manifest={manifest} designerTags={[]} />)
    expect(screen.getByTestId('manifest-configs').textContent).toBe('system_prompt')
    expect(screen.getByTestId('manifest-queries').textContent).toBe('tickets')
    const line = screen.getByTestId('manifest-claim').textContent
    expect(line).toContain('support_claim')
    expect(line).toContain('for older claim files: superred_task, superred_evaluation')
  })

  it('lists everything as the target’s own when the manifest names no hooks (servers before the addition)', () => {
    render(<ManifestView manifest={ManifestSchema.parse({ ...base, claim })} designerTags={[]} />)
    expect(screen.getByTestId('manifest-configs').textContent).toBe('system_promptsuperred_task')
    expect(screen.getByTestId('manifest-claim').textContent).not.toContain('older claim files')
  })

  it('says "none" where a target has no config of its own', () => {
    const manifest = ManifestSchema.parse({
      ...base,
      config_specs: [{ name: 'superred_task' }],
      claim: { ...claim, hooks: { config: 'superred_task' } },
    })
    render(<ManifestView manifest={manifest} designerTags={[]} />)
    expect(screen.getByTestId('manifest-configs').textContent).toBe('none')
  })
})

describe('ManifestSchema claim hooks', () => {
  it('refuses a hook that names no config or query of the manifest, with its path', () => {
    const r = ManifestSchema.safeParse({ ...base, claim: { ...claim, hooks: { config: 'nope', query: 'superred_evaluation' } } })
    expect(r.success).toBe(false)
    const issue = r.error!.issues[0]
    expect(issue.path).toEqual(['claim', 'hooks', 'config'])
    expect(issue.message).toBe("config 'nope' is not in config_specs")
  })
})
