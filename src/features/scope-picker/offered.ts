/**
 * What the optimizer would be offered under a threat model, computed by the
 * engine's own `offeredSurfaces` (fronts 1 and 2 of the Controller): writable
 * controllables, and visible observables followed by the read-only
 * controllables re-presented as observables. The target is the manifest made
 * into engine objects; granted tags are matched to the *target's* tags by
 * name, and a granted name the target does not have is reported: at run time
 * it would match nothing.
 */
import { controllable, observable, observableValue, offeredSurfaces, type Target } from '../../core/engine'
import { buildDomain, scopeOf, type SecurityDomainTag } from '../../core/tags'
import { forestFromManifest, type Manifest } from '../../protocol/schemas'

export interface OfferedSurface {
  name: string
  tag: string
  description: string
  type: string
  /** An observable that is really a read-only controllable. */
  readOnlyControllable: boolean
}

export interface Offered {
  controllables: OfferedSurface[]
  observables: OfferedSurface[]
  /** Granted names that are not tags of the target's forest. */
  unknown: string[]
}

/** A Target that only describes its surfaces: enough for the engine to say what would be offered. */
function describingTarget(manifest: Manifest): Target {
  const domain = buildDomain(forestFromManifest(manifest))
  const tag = (name: string) => domain.get(name) ?? null
  const controllables = manifest.controllables.map((c) =>
    controllable(c.name, tag(c.security_domain), { description: c.description, valueType: c.value_type }),
  )
  const observables = manifest.observables.map((o) =>
    observableValue(
      observable(o.name, tag(o.security_domain), { description: o.description, observableType: o.observable_type }),
      o.content,
    ),
  )
  const preview = () => Promise.reject(new Error('this target only describes its surfaces'))
  return {
    configSpecs: [],
    querySpecs: [],
    securityDomain: domain,
    setConfig: () => undefined,
    query: () => preview() as Promise<string>,
    getControllables: () => controllables,
    getObservables: () => observables,
    run: preview,
    resetEphemeralState: async () => undefined,
    teardown: async () => undefined,
  }
}

export function offeredFor(manifest: Manifest, scopeNames: readonly string[], readOnlyNames: readonly string[]): Offered {
  const target = describingTarget(manifest)
  const unknown: string[] = []
  const resolve = (names: readonly string[]) =>
    scopeOf(
      names.flatMap((n): SecurityDomainTag[] => {
        const t = target.securityDomain.get(n)
        if (!t) unknown.push(n)
        return t ? [t] : []
      }),
    )
  const write = resolve(scopeNames)
  const readOnly = resolve(readOnlyNames)
  const { controllables, observables } = offeredSurfaces(target, { write, readOnly, visibility: scopeOf([...write, ...readOnly]) })
  // The engine keeps the target's own observable objects and appends new ones for read-only controllables.
  const own = new Set(target.getObservables())
  return {
    controllables: controllables.map((c) => ({
      name: c.name,
      tag: c.securityDomain?.name ?? '',
      description: c.description,
      type: c.valueType,
      readOnlyControllable: false,
    })),
    observables: observables.map((o) => ({
      name: o.observable.name,
      tag: o.observable.securityDomain?.name ?? '',
      description: o.observable.description,
      type: o.observable.observableType,
      readOnlyControllable: !own.has(o),
    })),
    unknown,
  }
}
