/**
 * A manifest turned into engine objects, once per target URL: every session
 * of that target shares these, so that scopes resolved against `domain`
 * match its tags by identity (superred's `includes` compares objects).
 */
import {
  controllable,
  observable,
  observableValue,
  type ConfigSpec,
  type Controllable,
  type Observable,
  type ObservableValue,
  type QuerySpec,
} from '../core/engine'
import { buildDomain, type SecurityDomain, type SecurityDomainTag } from '../core/tags'
import { forestFromManifest, type Manifest, type ObservableSpec, type PauseDescriptor } from './schemas'

export class RemoteSurfaces {
  readonly manifest: Manifest
  readonly domain: SecurityDomain
  readonly controllables: readonly Controllable[]
  readonly observables: readonly ObservableValue[]
  readonly configSpecs: readonly ConfigSpec[]
  readonly querySpecs: readonly QuerySpec[]
  private readonly controllableByName: ReadonlyMap<string, Controllable>
  /** Per name, every distinct descriptor seen (almost always one). */
  private readonly observablesByName = new Map<string, Observable[]>()
  private readonly pausedCache = new Map<string, Controllable>()

  /** The manifest must have passed ManifestSchema (which also checks that its forest builds). */
  constructor(manifest: Manifest) {
    this.manifest = manifest
    this.domain = buildDomain(forestFromManifest(manifest))
    this.controllables = manifest.controllables.map((c) =>
      controllable(c.name, this.tag(c.security_domain), { description: c.description, valueType: c.value_type }),
    )
    this.controllableByName = new Map(this.controllables.map((c) => [c.name, c]))
    this.observables = manifest.observables.map((o) => observableValue(this.observableOf(o), o.content))
    this.configSpecs = manifest.config_specs.map((c) => ({
      name: c.name,
      securityDomain: c.security_domain === null ? null : this.tag(c.security_domain),
      description: c.description,
    }))
    this.querySpecs = manifest.query_specs.map((q) => ({ name: q.name, description: q.description, params: q.params }))
  }

  /** The manifest's tag of this name; a name outside the manifest is a protocol violation. */
  tag(name: string): SecurityDomainTag {
    const tag = this.domain.get(name)
    if (!tag) throw new Error(`tag '${name}' is not in the manifest's security_domain`)
    return tag
  }

  controllable(name: string): Controllable {
    const c = this.controllableByName.get(name)
    if (!c) throw new Error(`the target paused at controllable '${name}', which its manifest does not declare`)
    return c
  }

  /**
   * The controllable a pause names: the manifest's, or, when the pause carries a
   * descriptor that differs from it, a controllable of that name built from the
   * descriptor (its tag must be the manifest's). The name must be declared either way.
   */
  pausedAt(name: string, descriptor: PauseDescriptor | undefined): Controllable {
    const declared = this.controllable(name)
    if (descriptor === undefined) return declared
    if (
      descriptor.security_domain === declared.securityDomain?.name &&
      descriptor.description === declared.description &&
      descriptor.value_type === declared.valueType
    )
      return declared
    const key = JSON.stringify([name, descriptor.security_domain, descriptor.description, descriptor.value_type])
    let c = this.pausedCache.get(key)
    if (!c) {
      c = controllable(name, this.tag(descriptor.security_domain), {
        description: descriptor.description,
        valueType: descriptor.value_type,
      })
      this.pausedCache.set(key, c)
    }
    return c
  }

  /** One engine Observable per distinct descriptor (runtime observables included). */
  observableOf(spec: ObservableSpec): Observable {
    // Every event names its observable: compared field by field, not through a key string built per event.
    const known = this.observablesByName.get(spec.name)
    const found = known?.find(
      (o) =>
        (o.securityDomain?.name ?? null) === spec.security_domain &&
        o.observableType === spec.observable_type &&
        o.description === spec.description,
    )
    if (found) return found
    const obs = observable(spec.name, spec.security_domain === null ? null : this.tag(spec.security_domain), {
      description: spec.description,
      observableType: spec.observable_type,
    })
    if (known) known.push(obs)
    else this.observablesByName.set(spec.name, [obs])
    return obs
  }
}
