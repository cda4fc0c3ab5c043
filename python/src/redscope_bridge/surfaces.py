"""A Target-over-HTTP manifest as superred objects: one set of tag objects per server and forest.

superred matches scopes by identity (``SecurityDomainTag.includes`` compares with ``is``), so every
RemoteTarget of one server must hand out the very same tag objects, or a scope built from one
instance's tags offers the optimizer nothing on the next. :func:`read_manifest` keeps the tags it built
per base URL and forest, and builds a manifest's surfaces on them whenever the forest is the same.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field

from superred.core.types.controllable import Controllable
from superred.core.types.observable import Observable, ObservableValue
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag
from superred.core.types.state import ConfigSpec, QueryParam, QuerySpec

from redscope_bridge.client import DEFAULT_TIMEOUT_S, JsonClient, RemoteTargetError
from redscope_bridge.wire import Manifest, ManifestObservable, ObservableSpec, PauseDescriptor

_PROTOCOL = re.compile(r"^superred-target-http/(\d+)(?:\.\d+)*$")


@dataclass
class RemoteSurfaces:
    """A manifest as superred objects. *tags* may hold the tags of an earlier read of the same forest:
    they are used as they are, so every read of one server's forest yields the same objects."""

    manifest: Manifest
    tags: dict[str, SecurityDomainTag] = field(default_factory=dict)
    domain: SecurityDomain = field(init=False)
    controllables: list[Controllable] = field(init=False)
    observables: list[ObservableValue] = field(init=False)
    config_specs: list[ConfigSpec] = field(init=False)
    query_specs: list[QuerySpec] = field(init=False)

    def __post_init__(self) -> None:
        m = self.manifest
        by_name = {t["name"]: t for t in m["security_domain"]}

        def build(name: str, seen: tuple[str, ...] = ()) -> SecurityDomainTag:
            if name in self.tags:
                return self.tags[name]
            if name in seen:
                raise ValueError(f"security_domain: parent cycle through '{name}'")
            if name not in by_name:
                raise ValueError(f"tag '{name}' is not in the manifest's security_domain")
            parent = by_name[name].get("parent")
            tag = SecurityDomainTag(name, build(parent, (*seen, name)) if parent else None)
            self.tags[name] = tag
            return tag

        ordered = [build(t["name"]) for t in m["security_domain"]]
        self.domain = SecurityDomain(ordered)
        self.controllables = [
            Controllable(
                c["name"], self.tag(c["security_domain"]), c.get("description", ""), c.get("value_type", "text")
            )
            for c in m["controllables"]
        ]
        self.observables = [ObservableValue(self.observable(o), o.get("content")) for o in m["observables"]]
        self.config_specs = [
            ConfigSpec(
                c["name"],
                self.tag(c["security_domain"]) if c.get("security_domain") else None,  # type: ignore[arg-type]
                c.get("description", ""),
            )
            for c in m.get("config_specs", [])
        ]
        self.query_specs = [
            QuerySpec(
                q["name"],
                q.get("description", ""),
                [QueryParam(p["name"], p.get("description", "")) for p in q.get("params", [])],
            )
            for q in m.get("query_specs", [])
        ]

    def tag(self, name: str) -> SecurityDomainTag:
        if name not in self.tags:
            raise ValueError(f"tag '{name}' is not in the manifest's security_domain")
        return self.tags[name]

    def observable(self, spec: ObservableSpec | ManifestObservable) -> Observable:
        domain = spec.get("security_domain")
        return Observable(
            spec["name"],
            self.tag(domain) if domain else None,  # type: ignore[arg-type]
            spec.get("description", ""),
            spec.get("observable_type", "text"),
        )

    def controllable(self, name: str, descriptor: PauseDescriptor | None) -> Controllable:
        declared = next((c for c in self.controllables if c.name == name), None)
        if declared is None:
            raise ValueError(f"the target paused at controllable '{name}', which its manifest does not declare")
        if descriptor is None:
            return declared
        return Controllable(
            name,
            self.tag(descriptor["security_domain"]),
            descriptor.get("description", ""),
            descriptor.get("value_type", "text"),
        )


# Tags built so far, per base URL and forest (names and parents in order): a server that restarts with the same
# forest gets the same objects back; another forest gets its own.
_TAGS: dict[tuple[str, str], dict[str, SecurityDomainTag]] = {}
_TAGS_LOCK = threading.Lock()


def _forest_key(manifest: Manifest) -> str:
    return json.dumps([[t["name"], t.get("parent")] for t in manifest["security_domain"]])


def surfaces_of(base_url: str, manifest: Manifest) -> RemoteSurfaces:
    """The manifest's surfaces on the tags this process already holds for this server and forest."""
    key = (base_url, _forest_key(manifest))
    with _TAGS_LOCK:
        tags = _TAGS.setdefault(key, {})
        # Built under the lock: two threads reading one server at once must not build two sets of tags.
        return RemoteSurfaces(manifest, tags)


def read_manifest(url: str, token: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S) -> RemoteSurfaces:
    """Reads and checks a target's manifest (protocol major 1, a forest superred can build).

    Every read of one server's forest in this process gives the same tag objects (see the module's doc), so a
    scope built from one RemoteTarget's tags is the scope of every other RemoteTarget of that server.
    """
    client = JsonClient(url, token, timeout_s)
    try:
        manifest: Manifest = client.call("GET", "/manifest", None, "Manifest")
    finally:
        client.close()
    endpoint = client.endpoint("GET", "/manifest")
    m = _PROTOCOL.match(str(manifest.get("protocol", "")))
    if m is None or m.group(1) != "1":
        raise RemoteTargetError(
            endpoint, f"speaks {manifest.get('protocol')!r}; this client speaks superred-target-http/1"
        )
    try:
        return surfaces_of(client.base, manifest)
    except (ValueError, KeyError) as exc:
        raise RemoteTargetError(endpoint, f"the manifest cannot be built as superred objects: {exc}") from exc
