/**
 * The Run page follows the target a workspace was imported from (the designer's Import ▸ Target URL): a user who
 * imported their own target's forest and then opened Run found the demo chatbot there instead. Followed once per
 * workspace and URL, so choosing another target afterwards sticks; the connection is tested at once, so a target
 * that wants a token says so.
 */
import { useEffect } from 'react'
import type { DesignerView } from '../workspace/designerView'
import { httpTargetUrl } from './servedClaim'
import { setupActions, useSetup } from './setupStore'
import { testTarget } from './testedTarget'

/** The workspace's target URL and the key it is followed under ("<workspace id> <url>"), when it has one. */
function followable(view: DesignerView): { url: string; key: string } | null {
  return view.target?.kind === 'url' ? { url: view.target.url, key: `${view.workspaceId} ${view.target.url}` } : null
}

export function useFollowWorkspaceTarget(view: DesignerView): void {
  const followed = useSetup((s) => s.target.followed)
  const { url = null, key = null } = followable(view) ?? {}
  const { loading } = view
  useEffect(() => {
    if (loading || url === null || key === null || key === followed) return
    setupActions().setTarget({ kind: 'http', httpUrl: url, followed: key })
    testTarget(httpTargetUrl({ httpUrl: url }))
  }, [loading, url, key, followed])
}

/** The workspace's name while the page's target is the one it followed from it (and not edited since), else null. */
export function useFollowedFrom(view: DesignerView): string | null {
  const target = useSetup((s) => s.target)
  const f = followable(view)
  return f !== null && target.kind === 'http' && target.followed === f.key && target.httpUrl === f.url ? view.workspace : null
}
