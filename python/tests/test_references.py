"""Framework references in a served target's manifest: optional (``--references FILE`` or ``REDSCOPE_REFERENCES`` in
the target's or claim's module), checked against the protocol's list (the JSON Schema's enum, generated from
redscope's ``src/core/compliance/frameworks.ts``), refused at start-up by id and place, and absent when not given."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from redscope_bridge.cli import _parser
from redscope_bridge.loader import StartupError
from redscope_bridge.references import known_ids, parse_references
from redscope_bridge.schema import problems
from redscope_bridge.serve_command import _target

PROBE = "redscope_bridge.testing.probe_target:ProbeTarget"
CLAIM = "demo_secret_leak_claim:demo_secret_leak_claim"


def manifest_for(*argv: str) -> dict[str, Any]:
    args = _parser().parse_args(["serve", *argv])
    _factory, manifest = asyncio.run(_target(args))
    return manifest


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "references.json"
    path.write_text(json.dumps(data), "utf-8")
    return str(path)


def test_the_list_is_the_protocols() -> None:
    ids = known_ids()
    assert {"LLM01", "LLM10", "T1", "T15", "AML.T0051", "AML.T0054", "MEASURE 2.7", "GOVERN"} <= ids
    assert "LLM11" not in ids


def test_without_references_the_manifest_has_no_field() -> None:
    manifest = manifest_for(PROBE, "--claim", CLAIM)
    assert all("references" not in t for t in manifest["security_domain"])
    assert "references" not in manifest["claim"]
    assert problems("Manifest", manifest) == []


def test_references_reach_the_manifest_of_a_served_target_and_claim(tmp_path: Path) -> None:
    refs = {
        "tags": {"user": ["LLM01", "AML.T0051.000"], "inbox": ["AML.T0051.001"]},
        "claim": ["MEASURE 2.7"],
        "tasks": {"1": ["LLM07"]},
    }
    manifest = manifest_for(PROBE, "--claim", CLAIM, "--references", write(tmp_path, refs))
    by_name = {t["name"]: t for t in manifest["security_domain"]}
    assert by_name["user"]["references"] == ["LLM01", "AML.T0051.000"]
    assert by_name["inbox"]["references"] == ["AML.T0051.001"]
    assert "references" not in by_name["system"]
    assert manifest["claim"]["references"] == ["MEASURE 2.7"]
    assert manifest["claim"]["tasks"][0]["references"] == ["LLM07"]
    assert problems("Manifest", manifest) == []


@pytest.mark.parametrize(
    ("refs", "message"),
    [
        ({"tags": {"user": ["LLM11"]}}, "tags.user[0]: unknown framework reference 'LLM11'"),
        ({"tags": {"nope": ["LLM01"]}}, "tags.nope: not a tag of this target"),
        ({"tags": {"user": "LLM01"}}, "tags.user: a list of reference ids"),
        ({"tasks": {"0": ["LLM01"]}}, "tasks.0: tasks are numbered from 1"),
        ({"scope": ["LLM01"]}, "unknown key 'scope'"),
    ],
)
def test_a_bad_reference_is_refused_at_start_up_by_id_and_place(tmp_path: Path, refs: Any, message: str) -> None:
    path = write(tmp_path, refs)
    with pytest.raises(StartupError) as caught:
        manifest_for(PROBE, "--claim", CLAIM, "--references", path)
    assert f"--references {path}: {message}" in str(caught.value)


def test_claim_references_need_a_served_claim(tmp_path: Path) -> None:
    with pytest.raises(StartupError, match="need a served claim"):
        manifest_for(PROBE, "--references", write(tmp_path, {"claim": ["LLM01"]}))


def test_a_module_attribute_gives_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mapped_probe.py").write_text(
        "from redscope_bridge.testing.probe_target import ProbeTarget\n"
        "REDSCOPE_REFERENCES = {'tags': {'tools': ['LLM01', 'T6']}}\n",
        "utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    manifest = manifest_for("mapped_probe:ProbeTarget")
    assert {t["name"]: t.get("references") for t in manifest["security_domain"]}["tools"] == ["LLM01", "T6"]
    with pytest.raises(StartupError, match=r"mapped_probe.REDSCOPE_REFERENCES: tags.tools\[0\]: unknown"):
        parse_references({"tags": {"tools": ["llm01"]}}, "mapped_probe.REDSCOPE_REFERENCES")


def test_the_claim_file_carries_the_claim_and_task_references(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from redscope_bridge.serve_command import claim_file_command

    path = write(tmp_path, {"tags": {"user": ["LLM01"]}, "claim": ["MEASURE 2.7"], "tasks": {"1": ["LLM07"]}})
    args = _parser().parse_args(["claim-file", CLAIM, "--references", path])
    assert claim_file_command(args) == 0
    file = json.loads(capsys.readouterr().out)
    assert file["references"] == ["MEASURE 2.7"]
    assert file["tasks"][0]["references"] == ["LLM07"]
    with pytest.raises(StartupError, match=r"tasks.9: the claim has 1 task\(s\)"):
        claim_file_command(
            _parser().parse_args(["claim-file", CLAIM, "--references", write(tmp_path, {"tasks": {"9": ["LLM01"]}})])
        )
