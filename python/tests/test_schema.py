from redscope_bridge.schema import MESSAGES, problems, protocol_schema


def test_the_generated_schema_names_every_message() -> None:
    assert set(protocol_schema()["$defs"]) == set(MESSAGES)


def test_a_valid_run_step_passes_and_a_broken_one_is_named_by_path() -> None:
    step = {
        "run_id": "r1",
        "status": "paused",
        "events": [],
        "pause": {"call_id": "c1", "type": "ControllablePreCallEvent", "controllable": "x", "request": "?"},
    }
    assert problems("RunStep", step) == []
    broken = {**step, "events": [{"type": "ObservableEvent", "observable": {"name": ""}}]}
    found = problems("RunStep", broken)
    assert found
    assert any(p.startswith("events[0]") for p in found)


def test_request_bodies_are_checked_as_the_typescript_server_checks_them() -> None:
    assert problems("ConfigBody", {"name": "mode", "value": "ok"}) == []
    assert any("value" in p for p in problems("ConfigBody", {"name": "mode"}))
    assert problems("ResponseBody", {"call_id": "c1", "response": {"type": "ControllableNoInjection"}}) == []
    assert problems("ResponseBody", {"call_id": "c1", "response": {"type": "Shout"}})
