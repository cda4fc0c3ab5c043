"""deploy/k8s/bridge-target.yaml runs the bridge as the bridge's own parser understands it.

No cluster here: the manifest is read as data, its container arguments go
through ``redscope-bridge``'s argument parser, and what a sweep Job would send
(the replicas' names, the token) is checked against what the server accepts.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import yaml

from redscope_bridge.app import host_allowed
from redscope_bridge.cli import _parser

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "k8s" / "bridge-target.yaml"


def _objects() -> dict[str, dict[str, Any]]:
    return {o["kind"]: o for o in yaml.safe_load_all(MANIFEST.read_text()) if o}


def test_the_bridge_parses_the_containers_arguments_and_the_target_module_exists() -> None:
    sts = _objects()["StatefulSet"]
    container = sts["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == ["redscope-bridge"]
    args = _parser().parse_args(container["args"])
    assert args.command == "serve"
    module = args.target.split(":")[0]
    assert importlib.util.find_spec(module) is not None, f"{module} is not installed with the test extra"
    assert args.host == "0.0.0.0"
    port = _objects()["Service"]["spec"]["ports"][0]["port"]
    assert args.port == port


def test_every_replica_name_is_a_host_the_bridge_answers_and_the_token_comes_from_the_secret() -> None:
    objs = _objects()
    sts, svc = objs["StatefulSet"], objs["Service"]
    assert svc["spec"]["clusterIP"] == "None"
    assert sts["spec"]["serviceName"] == svc["metadata"]["name"]
    container = sts["spec"]["template"]["spec"]["containers"][0]
    args = _parser().parse_args(container["args"])
    for k in range(sts["spec"]["replicas"]):
        host = f"{sts['metadata']['name']}-{k}.{svc['metadata']['name']}:{args.port}"
        assert host_allowed(host, args.allow_host), host
    assert not host_allowed("evil.example:8801", args.allow_host)
    env = {e["name"]: e for e in container["env"]}
    assert env[args.token_env]["valueFrom"]["secretKeyRef"] == {"name": "redscope-keys", "key": "target-token"}


def test_the_kwargs_file_with_the_api_key_is_mounted_from_a_secret_not_passed_inline() -> None:
    sts = _objects()["StatefulSet"]
    pod = sts["spec"]["template"]["spec"]
    container = pod["containers"][0]
    args = _parser().parse_args(container["args"])
    assert args.kwargs is None
    assert args.kwargs_file is not None
    mount = next(m for m in container["volumeMounts"] if args.kwargs_file.startswith(m["mountPath"] + "/"))
    volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
    assert "secret" in volume
