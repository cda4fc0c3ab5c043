/** The manifest of a TypeScript Target: what `GET /manifest` answers. */
import type { Target } from '../../core/engine'
import { PROTOCOL_VERSION, type Manifest } from '../../protocol/schemas'

export interface ManifestInfo {
  readonly name: string
  readonly description?: string
  /** Tag descriptions by name (a SecurityDomain holds names only). */
  readonly tagDescriptions?: Readonly<Record<string, string>>
  /** Tag framework references by name (optional in the manifest: a tag without any has no field). */
  readonly tagReferences?: Readonly<Record<string, readonly string[]>>
  readonly concurrency: number
}

/** Reads a target's static surfaces. `content` must be JSON: it is sent as is. */
export function manifestOf(target: Target, info: ManifestInfo): Manifest {
  const describe = info.tagDescriptions ?? {}
  const refs = info.tagReferences ?? {}
  return {
    protocol: PROTOCOL_VERSION,
    name: info.name,
    description: info.description ?? '',
    security_domain: target.securityDomain.tags.map((t) => ({
      name: t.name,
      parent: t.parent?.name ?? null,
      description: describe[t.name] ?? '',
      ...(refs[t.name]?.length ? { references: [...refs[t.name]] } : {}),
    })),
    controllables: target.getControllables().map((c) => ({
      name: c.name,
      // A domain-less controllable cannot be scoped; the reference fails it at emit time, we at publish time.
      security_domain: c.securityDomain?.name ?? missing('controllable', c.name),
      description: c.description,
      value_type: c.valueType,
    })),
    observables: observablesOf(target),
    config_specs: target.configSpecs.map((c) => ({
      name: c.name,
      security_domain: c.securityDomain?.name ?? null,
      description: c.description,
    })),
    query_specs: target.querySpecs.map((q) => ({
      name: q.name,
      description: q.description,
      params: q.params.map((p) => ({ name: p.name, description: p.description })),
    })),
    concurrency: info.concurrency,
    // A TypeScript target judges nothing itself: redscope's claim files do, in the Controller.
    claim: null,
  }
}

/** The target's static observables as they are now (GET /sessions/{sid}/observables answers these). */
export function observablesOf(target: Target): Manifest['observables'] {
  return target.getObservables().map((o) => ({
    name: o.observable.name,
    security_domain: o.observable.securityDomain?.name ?? missing('observable', o.observable.name),
    description: o.observable.description,
    observable_type: o.observable.observableType,
    content: o.content ?? null,
  }))
}

function missing(kind: string, name: string): never {
  throw new Error(`${kind} '${name}' has no security domain, so it cannot be published in a manifest`)
}
