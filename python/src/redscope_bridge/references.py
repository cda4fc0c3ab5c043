"""Framework references (``LLM01``, ``T2``, ``AML.T0051``, ``MEASURE 2.7``) for a served target's tags and claim.

Optional, given with ``redscope-bridge serve --references FILE`` (a JSON file) or as a module attribute
``REDSCOPE_REFERENCES`` beside the target's factory (the same shape)::

    {"tags": {"user": ["LLM01", "AML.T0051.000"]}, "claim": ["MEASURE 2.7"], "tasks": {"1": ["LLM07"]}}

The accepted ids are the protocol's (the enum of ``references`` in ``protocol.schema.json``, generated from
redscope's one list, ``src/core/compliance/frameworks.ts``): an unknown id is refused at start-up by name and place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from redscope_bridge.loader import StartupError
from redscope_bridge.schema import protocol_schema

LIST_FILE = "src/core/compliance/frameworks.ts"


@cache
def known_ids() -> frozenset[str]:
    """Every accepted id, read from the protocol's JSON Schema (one list for both languages)."""
    tag = protocol_schema()["$defs"]["Manifest"]["properties"]["security_domain"]["items"]
    return frozenset(tag["properties"]["references"]["items"]["enum"])


@dataclass(frozen=True)
class References:
    tags: dict[str, list[str]] = field(default_factory=dict)
    claim: list[str] = field(default_factory=list)
    tasks: dict[int, list[str]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.tags and not self.claim and not self.tasks


def _ids(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise StartupError(f'{where}: a list of reference ids such as ["LLM01"]')
    for i, ref in enumerate(value):
        if ref not in known_ids():
            raise StartupError(
                f"{where}[{i}]: unknown framework reference {ref!r}: not in the list of {LIST_FILE} "
                "(OWASP LLM01..LLM10, OWASP Agentic T1..T15, MITRE ATLAS AML.Txxxx, "
                "NIST AI RMF GOVERN/MAP/MEASURE/MANAGE [n[.n]])"
            )
    return list(dict.fromkeys(value))


def parse_references(data: Any, where: str) -> References:
    """Checks the shape and every id; ``where`` names the source in messages (a file, a module attribute)."""
    if not isinstance(data, dict):
        raise StartupError(f"{where}: a JSON object with optional 'tags', 'claim' and 'tasks'")
    unknown = sorted(set(data) - {"tags", "claim", "tasks"})
    if unknown:
        raise StartupError(f"{where}: unknown key {unknown[0]!r} (expected 'tags', 'claim', 'tasks')")
    tags_in = data.get("tags", {})
    tasks_in = data.get("tasks", {})
    if not isinstance(tags_in, dict) or not isinstance(tasks_in, dict):
        raise StartupError(f"{where}: 'tags' and 'tasks' are objects (tag name or task number to a list of ids)")
    tasks: dict[int, list[str]] = {}
    for key, value in tasks_in.items():
        if not str(key).isdigit() or int(key) < 1:
            raise StartupError(f"{where}: tasks.{key}: tasks are numbered from 1")
        tasks[int(key)] = _ids(value, f"{where}: tasks.{key}")
    return References(
        tags={str(k): _ids(v, f"{where}: tags.{k}") for k, v in tags_in.items()},
        claim=_ids(data.get("claim", []), f"{where}: claim"),
        tasks=tasks,
    )


def read_references_file(path: str) -> References:
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise StartupError(f"--references {path}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StartupError(
            f"--references {path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    return parse_references(data, f"--references {path}")


def apply_references(manifest: dict[str, Any], refs: References, where: str) -> None:
    """Writes the references into the manifest; a tag or task it does not have is refused by name."""
    tags = {t["name"]: t for t in manifest["security_domain"]}
    for name, ids in refs.tags.items():
        if name not in tags:
            raise StartupError(f"{where}: tags.{name}: not a tag of this target (its tags: {', '.join(tags)})")
        if ids:
            tags[name]["references"] = ids
    claim = manifest.get("claim")
    if (refs.claim or refs.tasks) and claim is None:
        raise StartupError(f"{where}: 'claim' and 'tasks' need a served claim (--claim)")
    if claim is not None:
        apply_claim_references(claim, refs, where)


def apply_claim_references(claim: dict[str, Any], refs: References, where: str) -> None:
    """The claim's and its tasks' references, into a manifest's ``claim`` or a claim file (the same shape)."""
    if refs.claim:
        claim["references"] = refs.claim
    for number, ids in refs.tasks.items():
        if number > len(claim["tasks"]):
            raise StartupError(f"{where}: tasks.{number}: the claim has {len(claim['tasks'])} task(s)")
        if ids:
            claim["tasks"][number - 1]["references"] = ids


def module_references(spec: str) -> References | None:
    """``REDSCOPE_REFERENCES`` of the module of ``MODULE:ATTR`` (the target's or the claim's), if it has one."""
    import importlib

    module_name = spec.partition(":")[0]
    try:
        module = importlib.import_module(module_name)
    except Exception:  # the loader has imported it already and said why it failed
        return None
    data = getattr(module, "REDSCOPE_REFERENCES", None)
    return None if data is None else parse_references(data, f"{module_name}.REDSCOPE_REFERENCES")


def merged(*sources: References | None) -> References:
    """Later sources win per tag, per task and for the claim (the command line's file over module attributes)."""
    tags: dict[str, list[str]] = {}
    tasks: dict[int, list[str]] = {}
    claim: list[str] = []
    for s in sources:
        if s is None:
            continue
        tags.update(s.tags)
        tasks.update(s.tasks)
        claim = s.claim or claim
    return References(tags=tags, claim=claim, tasks=tasks)
