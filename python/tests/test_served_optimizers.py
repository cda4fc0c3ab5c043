"""``redscope-bridge serve --optimizer``: start-up errors are one line and exit 2; the kwargs schemas the bridge
publishes for superred's optimizer packages match their installed signatures; the generated Optimizer-over-HTTP
JSON Schema is checked from Python; ``--help`` starts without superred and without the network."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from redscope_bridge.cli import main
from redscope_bridge.kwargs_schema import known_schemas, kwargs_schema_of, signature_schema
from redscope_bridge.loader import resolve
from redscope_bridge.schema import OPTIMIZER_MESSAGES, optimizer_protocol_schema, problems
from tests.bridge_process import PYTHON_DIR

PROBE = "redscope_bridge.testing.probe_optimizer:ProbeOptimizer"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--optimizer", "no_such_optimizer_mod:X"], "cannot import module 'no_such_optimizer_mod'"),
        (
            ["--optimizer", "redscope_bridge.testing.probe_target:ProbeTarget"],
            "is a class but not a superred Optimizer",
        ),
        (["--optimizer", "redscope_bridge.testing.probe_optimizer:json"], "expected an Optimizer class or a callable"),
        (["--optimizer", PROBE, "--optimizer-kwargs", '{"runs": 0}'], "ValueError: runs must be at least 1"),
        (["--optimizer", PROBE, "--optimizer-kwargs", '{"runs": "x"}'], "runs: 'x' is not of type 'integer'"),
        (["--optimizer", PROBE, "--optimizer-kwargs", "{oops"], "--optimizer-kwargs: not JSON"),
        (["--optimizer", f"a b={PROBE}"], "the name 'a b' must be letters"),
        (["--optimizer", PROBE, "--optimizer", PROBE], "the name 'ProbeOptimizer' is served twice"),
        (["--optimizer", PROBE, "--llm-model", "openai/no-such-model-x"], "litellm has no price for this model"),
        (["--optimizer", PROBE, "--llm-model", "x/y", "--llm-price", "cheap"], "--llm-price cheap: expected IN,OUT"),
        (["--llm-model", "openai/gpt-4o-mini"], "--llm-model needs --optimizer"),
        (["--optimizer", PROBE, "--kwargs", "{}"], "--kwargs needs a target"),
        ([], "nothing to serve"),
    ],
)
def test_optimizer_start_up_errors_are_one_line_and_exit_2(
    args: list[str], message: str, settled_capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *args, "--port", "0"]) == 2
    err = settled_capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("redscope-bridge: ")
    assert message in err


def test_optimizer_kwargs_must_follow_their_optimizer(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--optimizer-kwargs", "{}", "--optimizer", PROBE])
    assert exit_.value.code == 2
    assert "--optimizer-kwargs must follow the --optimizer it configures" in capsys.readouterr().err


def test_a_model_litellm_cannot_price_is_priced_by_llm_price() -> None:
    import litellm

    from redscope_bridge.serve_command import _check_pricing

    _check_pricing("openai/priced-by-redscope-test", "1.5,6")
    info = litellm.get_model_info("openai/priced-by-redscope-test")
    assert (info["input_cost_per_token"], info["output_cost_per_token"]) == (1.5e-6, 6e-6)


@pytest.mark.parametrize("ref", sorted(known_schemas()))
def test_the_published_kwargs_schema_of_each_known_optimizer_is_its_signature(ref: str) -> None:
    """Every property is a parameter of the installed constructor, every default its default; the defaults validate
    and construct the optimizer."""
    schema = known_schemas()[ref]
    Draft202012Validator.check_schema(schema)
    cls = resolve(ref)
    params = {n: p for n, p in inspect.signature(cls.__init__).parameters.items() if n != "self"}  # type: ignore[misc]
    assert set(params) == set(schema["properties"])
    for name, p in params.items():
        assert schema["properties"][name]["default"] == p.default, name
    defaults = {n: s["default"] for n, s in schema["properties"].items()}
    Draft202012Validator(schema).validate(defaults)
    cls(**defaults)  # type: ignore[operator]
    # The server's own kwargs become the defaults a session sees.
    if schema["properties"]:
        key = next(iter(schema["properties"]))
        served = kwargs_schema_of(cls, {key: schema["properties"][key]["default"]}, ref)  # type: ignore[arg-type]
        assert served["properties"][key]["default"] == schema["properties"][key]["default"]


def test_a_schema_from_the_signature_of_an_optimizer_the_bridge_does_not_know() -> None:
    cls: Any = resolve(PROBE)
    schema = signature_schema(cls)
    Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    assert schema["required"] == []
    assert schema["properties"]["runs"] == {"type": "integer", "default": 1}
    assert schema["properties"]["fail_on"] == {"type": ["string", "null"], "default": None}
    assert schema["properties"]["sleep_s"] == {"type": "number", "default": 0.0}

    def factory(prompts: list[str], *, verbose: bool = False, **extra: Any) -> Any:
        raise NotImplementedError

    open_ended = signature_schema(factory)
    assert open_ended["required"] == ["prompts"]
    assert "additionalProperties" not in open_ended
    assert open_ended["properties"]["prompts"] == {"type": "array", "items": {"type": "string"}}


def test_the_generated_optimizer_schema_names_every_message_and_checks_bodies() -> None:
    assert set(optimizer_protocol_schema()["$defs"]) == set(OPTIMIZER_MESSAGES)
    event = {
        "event": {
            "type": "RunStartEvent",
            "event_id": "6b0f0c1e-2b7a-4c55-9a3e-1f4b7a2f8c11",
            "timestamp": "2026-01-02T03:04:05",
        }
    }
    assert problems("EventBody", event) == []
    broken = {**event, "trajectory": [{"type": "ControllableInjection", "event_id": "nope", "value": "x"}]}
    assert any(p.startswith("trajectory[0]") for p in problems("EventBody", broken))
    assert (
        problems(
            "EventAnswer", {"response": {"type": "RunEndResponse", "done": True}, "usage": {"calls": 0, "cost": 0}}
        )
        == []
    )
    assert problems("EventAnswer", {"response": {"type": "RunEndResponse"}, "usage": {"calls": 0, "cost": 0}})
    assert problems("OptimizerManifest", {"protocol": "superred-optimizer-http/1", "optimizers": []}) == []


def test_help_starts_without_superred_or_the_network_and_says_which_price_list_it_uses() -> None:
    """``--help`` imports nothing heavy (litellm fetched its price list at import, three times when offline)."""
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    probe = (
        "import sys; from redscope_bridge.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print('litellm' in sys.modules, 'superred.core' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=PYTHON_DIR, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stderr.strip() == "False False"
    assert "LITELLM_LOCAL_MODEL_COST_MAP=True" in done.stdout
    assert "set it to False to fetch" in done.stdout
