"""``MODULE:ATTR`` -> a superred TargetFactory: a Target class, a TargetFactory, or a callable returning either."""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from superred.core.controller import TargetFactory
from superred.core.interfaces.target import Target


class StartupError(Exception):
    """A problem found before serving: one line on stderr, exit code 2."""


@dataclass(frozen=True)
class Loaded:
    factory: TargetFactory
    name: str
    description: str
    #: An instance already made while finding out what ATTR returns: the manifest's probe.
    probe: Target | None = None


def load_kwargs(inline: str | None, path: str | None, flag: str = "--kwargs") -> dict[str, Any]:
    if inline is not None and path is not None:
        raise StartupError(f"give {flag} or {flag}-file, not both")
    if inline is None and path is None:
        return {}
    where = flag if inline is not None else f"{flag}-file {path}"
    if path is not None:
        try:
            inline = Path(path).read_text("utf-8")
        except OSError as exc:
            raise StartupError(f"{where}: cannot be read ({exc.strerror or exc})") from exc
    assert inline is not None
    try:
        data = json.loads(inline)
    except json.JSONDecodeError as exc:
        raise StartupError(f"{where}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    if not isinstance(data, dict):
        raise StartupError(f"{where}: must be a JSON object of keyword arguments, not {type(data).__name__}")
    return data


def resolve(spec: str, example: str = "minimal_llm_chat:MinimalLLMChatTarget") -> object:
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise StartupError(f"{spec!r}: expected MODULE:ATTR (e.g. {example})")
    # Like uvicorn: a module in the current directory can be served without installing it.
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise StartupError(f"cannot import module '{module_name}': {type(exc).__name__}: {exc}") from exc
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise StartupError(f"module '{module_name}' has no attribute '{attr}'")
        obj = getattr(obj, part)
    return obj


def _checked(spec: str, made: object) -> Target:
    if not isinstance(made, Target):
        raise TypeError(f"{spec} returned {type(made).__name__}, not a superred Target")
    return made


def load_factory(spec: str, kwargs: dict[str, Any], concurrency: int | None) -> Loaded:
    obj = resolve(spec)
    name = spec.partition(":")[2].split(".")[-1]
    if isinstance(obj, TargetFactory):
        if kwargs:
            raise StartupError(f"{spec} is a TargetFactory: it takes no --kwargs")
        factory = obj if concurrency is None else TargetFactory(create=obj.create, concurrency=concurrency)
        return Loaded(factory, name, "")
    if inspect.isclass(obj) and issubclass(obj, Target):
        if inspect.isabstract(obj):
            raise StartupError(f"{spec} is abstract: serve a concrete Target class")
        cls = obj

        def create_instance() -> Target:
            return cls(**kwargs)

        return Loaded(TargetFactory(create=create_instance, concurrency=concurrency or 4), name, _doc(cls))
    if callable(obj):
        fn: Callable[..., object] = obj
        made = _call(spec, fn, kwargs)
        if isinstance(made, TargetFactory):
            inner = made
            factory = inner if concurrency is None else TargetFactory(create=inner.create, concurrency=concurrency)
            return Loaded(factory, name, _doc(fn))

        def create_called() -> Target:
            return _checked(spec, fn(**kwargs))

        try:
            probe = _checked(spec, made)
        except TypeError as exc:
            raise StartupError(str(exc)) from exc
        return Loaded(TargetFactory(create=create_called, concurrency=concurrency or 4), name, _doc(fn), probe)
    raise StartupError(f"{spec} is a {type(obj).__name__}: expected a Target class, a TargetFactory or a callable")


def _call(spec: str, fn: Callable[..., object], kwargs: dict[str, Any]) -> object:
    try:
        return fn(**kwargs)
    except Exception as exc:
        raise StartupError(f"{spec}(**kwargs) raised {type(exc).__name__}: {exc}") from exc


def _doc(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.split("\n\n", 1)[0].replace("\n", " ").strip()
