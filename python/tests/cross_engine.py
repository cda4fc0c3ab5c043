"""Helpers for the cross-engine proof: run superred in process, run redscope's CLI through the bridge, compare."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from superred.core.interfaces.optimizer import Optimizer
from superred.core.persistence import _serialize_event, _serialize_response
from superred.core.types.event import Event

REPO = Path(__file__).resolve().parents[2]
MASKED = "<masked>"


def redscope(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``redscope`` (the TypeScript CLI) from this repository."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        ["node", str(REPO / "bin" / "redscope.mjs"), *args],
        cwd=cwd,
        env=env,
        text=True,
        capture_output=True,
        timeout=300,
        check=False,
    )


def masked(items: list[dict[str, Any]], visibility: set[str]) -> list[dict[str, Any]]:
    """Ids and clock readings masked. The RunEndEvent's tag is superred's ``next(iter(visibility))``, an arbitrary
    member of a hash set: it must be in the visibility, and is masked."""
    out = []
    for item in items:
        item = dict(item)
        if item.get("kind") == "event":
            item["event_id"] = MASKED
            item["timestamp"] = MASKED
            if item["type"] == "RunEndEvent":
                assert item["security_domain"] in visibility, item
                item["security_domain"] = MASKED
        out.append(item)
    return out


def serialize_items(items: list[Any]) -> list[dict[str, Any]]:
    return [_serialize_event(i) if isinstance(i, Event) else _serialize_response(i) for i in items]


def recording(cls: type[Optimizer], *args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """A factory of *cls* optimizers that keeps what the optimizer was offered and saw (its filtered views)."""
    seen: dict[str, Any] = {}

    class Recording(cls):  # type: ignore[misc, valid-type]
        async def initialize(self, goal: Any, controllables: Any, observables: Any, llm_client: Any) -> None:
            seen["controllables"] = [
                {
                    "name": c.name,
                    "security_domain": c.security_domain.name,
                    "description": c.description,
                    "value_type": c.value_type,
                }
                for c in controllables
            ]
            seen["observables"] = [
                {
                    "observable": {
                        "name": o.observable.name,
                        "security_domain": o.observable.security_domain.name,
                        "description": o.observable.description,
                        "observable_type": o.observable.observable_type,
                    },
                    "content": o.content,
                }
                for o in observables
            ]
            await super().initialize(goal, controllables, observables, llm_client)

        async def teardown(self) -> None:
            seen["views"] = [serialize_items(t.snapshot()) for t in self.past_trajectories]
            await super().teardown()

    Recording.__name__ = cls.__name__

    def factory() -> Optimizer:
        return Recording(*args, **kwargs)

    return factory, seen


def read(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def attacker_view(task_dir: Path, run: int) -> list[dict[str, Any]]:
    """What the attacker saw of a run in redscope's tree, as redscope reads it (src/core/results/attackerView.ts).

    The tree stores each run once: an older tree's run_NNNNN.attacker.json is read when present; otherwise the view
    is derived from the run, the task's grant (attacker.json, else task.json) and the experiment's domain.json with
    superred's rule: an item is seen when a granted tag (scope or read_only) is its domain or an ancestor of it, a
    response when its event is.
    """
    name = f"run_{run:05d}"
    recorded = task_dir / "trajectories" / f"{name}.attacker.json"
    if recorded.exists():
        return list(read(recorded)["trajectory"])
    parents = {t["name"]: t["parent"] for t in read(task_dir.parent.parent / "domain.json")["tags"]}
    grant_file = task_dir / "attacker.json"
    grant = read(grant_file if grant_file.exists() else task_dir / "task.json")
    granted = set(grant["scope"]) | set(grant["read_only"])

    def seen(tag: str | None) -> bool:
        while tag is not None:
            if tag in granted:
                return True
            tag = parents.get(tag)
        return False

    view: list[dict[str, Any]] = []
    pending: dict[str, list[str | None]] = {}
    for item in read(task_dir / "trajectories" / f"{name}.json")["trajectory"]:
        if item["kind"] == "event":
            domain = item.get("security_domain")
            if item["type"] in ("ControllablePreCallEvent", "ControllablePostCallEvent"):
                pending.setdefault(item["controllable"]["name"], []).append(domain)
        else:
            stack = pending.get(item.get("controllable") or "", [])
            domain = stack.pop() if stack else None
        if seen(domain):
            view.append(item)
    return view
