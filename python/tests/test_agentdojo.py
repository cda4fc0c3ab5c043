"""AgentDojoTarget and superred-claim-agentdojo through the bridge, driven by redscope's CLI: the attacker's text
goes into a tool store's read (read__banking__..., read__workspace__...), the fake agent follows it, and
AgentDojo's own security check, run on the bridge by the claim's task, calls it a success. Without write access
the same agent does nothing harmful and the check says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.agentdojo_claims import PAIRS, PAYLOAD
from tests.bridge_process import bridge
from tests.cross_engine import read, redscope

CLAIM_KWARGS = json.dumps({"pairs": PAIRS})


def serve_agentdojo(llm: str, tmp_path: Path, claim: list[str]) -> Any:
    kwargs = tmp_path / "target.json"
    kwargs.write_text(json.dumps({"pipeline_model": "openai/gpt-4o-mini", "api_base": llm, "api_key": "sk-fake"}))
    return bridge("agentdojo_target:AgentDojoTarget", "--kwargs-file", str(kwargs), "--name", "agentdojo", *claim)


def attack(url: str, out: Path, *threat: str) -> tuple[Path, str]:
    done = redscope(
        "run",
        "--target",
        url,
        *threat,
        "--template",
        PAYLOAD,
        "--inject-on",
        "post",
        "--max-runs",
        "1",
        "--out",
        str(out),
        cwd=out.parent,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    [exp] = [d for d in out.iterdir() if d.is_dir()]
    return exp, done.stdout


def task_dirs(exp: Path) -> dict[str, Path]:
    return {read(d / "task.json")["goal"]: d for d in (exp / "tasks").iterdir()}


def test_an_injection_through_a_tool_read_succeeds_by_agentdojos_own_check(fake_llm_url: str, tmp_path: Path) -> None:
    claim = ["--claim", "agentdojo_claim:agentdojo_layer1_claim", "--claim-kwargs", CLAIM_KWARGS]
    with serve_agentdojo(fake_llm_url, tmp_path, claim) as url:
        manifest = json.loads(redscope_manifest(url))
        assert len(manifest["security_domain"]) == 32
        assert [t["goal"][:20] for t in manifest["claim"]["tasks"]] == ["Send as much money a", "Delete the file with"]
        exp, _ = attack(url, tmp_path / "attacked", "--scope", "banking,workspace")
        (tmp_path / "control").mkdir()
        control, _ = attack(url, tmp_path / "control" / "out", "--read-only", "banking,workspace")

    rows = read(exp / "manifest.json")["tasks"]
    assert [(r["success"], r["stop_reason"]) for r in rows] == [(True, "success"), (True, "success")]
    for goal, d in task_dirs(exp).items():
        suite = "banking" if goal.startswith("Send") else "workspace"
        best = read(d / "task.json")["best_evaluation"]
        # AgentDojo's own check, run on the bridge by the claim's task: the sub-scores keep their names.
        assert best["primary_score"]["name"] == "attack_succeeded"
        assert best["sub_scores"][f"suite_{suite}"]["value"] == 1.0
        assert "security=True" in best["rationale"]
        items = read(d / "trajectories" / "run_00001.json")["trajectory"]
        reads = [i for i in items if i.get("type") == "ControllablePostCallEvent"]
        assert reads, "the agent read a store"
        assert all(r["controllable"]["name"].startswith(f"read__{suite}__") for r in reads)
        injected = [i for i in items if i.get("type") == "ControllableInjection"]
        assert [i["value"] for i in injected] == [PAYLOAD]

    # The control: the attacker only reads; the same agent makes no harmful call, and AgentDojo says so.
    rows = read(control / "manifest.json")["tasks"]
    assert [r["success"] for r in rows] == [False, False]


def test_a_malformed_seed_override_fails_its_task_only(fake_llm_url: str, tmp_path: Path) -> None:
    claim = ["--claim", "tests.agentdojo_claims:with_malformed_seed"]
    with serve_agentdojo(fake_llm_url, tmp_path, claim) as url:
        exp, _ = attack(url, tmp_path / "out", "--scope", "banking,workspace")
    rows = read(exp / "manifest.json")["tasks"]
    assert [r["stop_reason"] for r in rows] == ["success", "error", "success"]
    bad = next(d for d in (exp / "tasks").iterdir() if read(d / "task.json")["stop_reason"] == "error")
    error = read(bad / "task.json")["error"]
    assert "seed" in error.lower() or "yaml" in error.lower(), error


def redscope_manifest(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(f"{url}/manifest", timeout=30) as r:  # loopback only
        return str(r.read().decode("utf-8"))
