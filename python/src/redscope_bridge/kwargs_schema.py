"""A JSON Schema (draft 2020-12) of an optimizer's keyword arguments, for the run console's form and the checks.

Where it comes from, first found wins:
1. the optimizer's own ``kwargs_schema`` attribute (a dict), for authors who want to say more;
2. ``optimizer_kwargs.schema.json`` beside this module: the superred optimizer packages the bridge knows
   (goal-passthrough, demo-prompt-list, PAIR, TAP, Crescendo), with descriptions and the limits below which
   they break, checked against their installed signatures by the tests;
3. the constructor's signature: annotations as JSON types, defaults as defaults, parameters without one
   required, unknown keywords refused unless it takes ``**kwargs``.
"""

from __future__ import annotations

import copy
import inspect
import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

_SCALARS: dict[Any, str] = {int: "integer", float: "number", str: "string", bool: "boolean"}


@cache
def known_schemas() -> dict[str, dict[str, Any]]:
    text = resources.files("redscope_bridge").joinpath("optimizer_kwargs.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return {k: v for k, v in data.items() if not k.startswith("$")}


def ref_of(obj: object) -> str:
    """``module:QualName`` of a class or function, as the known schemas are keyed."""
    return f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', type(obj).__name__)}"


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _type_schema(annotation: Any) -> dict[str, Any]:
    """What JSON can say of a Python annotation; ``{}`` (anything) where it cannot."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return {}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if annotation is type(None):
        return {"type": "null"}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        parts = [_type_schema(a) for a in args]
        if all(set(p) == {"type"} and isinstance(p["type"], str) for p in parts):
            return {"type": [p["type"] for p in parts]}
        if any(p == {} for p in parts):
            return {}
        return {"anyOf": parts}
    if origin in (list, tuple, set, frozenset, Sequence, Iterable) or annotation in (list, tuple):
        items = _type_schema(args[0]) if args else {}
        return {"type": "array", **({"items": items} if items else {})}
    if origin in (dict, Mapping) or annotation is dict:
        return {"type": "object"}
    return {}


def signature_schema(make: Callable[..., object]) -> dict[str, Any]:
    """The schema the constructor's (or factory's) signature says."""
    target = make.__init__ if inspect.isclass(make) else make
    try:
        sig = inspect.signature(target)
        hints = typing.get_type_hints(target)
    except (TypeError, ValueError, NameError):
        return {"type": "object"}
    props: dict[str, Any] = {}
    required: list[str] = []
    open_ended = False
    for name, p in sig.parameters.items():
        if name == "self":
            continue
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            open_ended = True
            continue
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.POSITIONAL_ONLY):
            continue
        prop = _type_schema(hints.get(name, p.annotation))
        if p.default is inspect.Parameter.empty:
            required.append(name)
        elif _jsonable(p.default):
            prop["default"] = p.default
        props[name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": props, "required": required}
    if not open_ended:
        schema["additionalProperties"] = False
    return schema


def kwargs_schema_of(make: Callable[..., object], server_kwargs: Mapping[str, Any], ref: str = "") -> dict[str, Any]:
    """The schema a session's kwargs are checked against, the server's own kwargs as its defaults.

    *ref* is ``MODULE:ATTR`` as the user named it (a package's public name; the class may live in a submodule).
    A keyword the server fixed is no longer required of a session (the server's value is used).
    """
    own = getattr(make, "kwargs_schema", None)
    if isinstance(own, dict):
        schema = copy.deepcopy(own)
    else:
        known = known_schemas().get(ref) or known_schemas().get(ref_of(make))
        schema = copy.deepcopy(known) if known is not None else signature_schema(make)
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    props = schema.setdefault("properties", {})
    for key, value in server_kwargs.items():
        if isinstance(props.get(key), dict):
            props[key]["default"] = copy.deepcopy(value)
    if server_kwargs and isinstance(schema.get("required"), list):
        schema["required"] = [r for r in schema["required"] if r not in server_kwargs]
    return schema
