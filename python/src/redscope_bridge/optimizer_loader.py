"""``--optimizer [NAME=]MODULE:ATTR`` -> a served optimizer: an Optimizer class, or a callable returning one.

superred's Controller calls its optimizer factory once per task with no arguments, the kwargs bound by the
caller; here a session is a task, and its kwargs are the server's (``--optimizer-kwargs``) under the
session's own, checked against the optimizer's kwargs schema before the optimizer is made.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from superred.core.interfaces.optimizer import Optimizer

from redscope_bridge.errors import ProtocolError, error_text
from redscope_bridge.kwargs_schema import kwargs_schema_of
from redscope_bridge.loader import StartupError, _doc, resolve
from redscope_bridge.wire import ServedOptimizerWire

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass
class ServedOptimizer:
    """One ``--optimizer``: how to make it, its kwargs and their schema."""

    name: str
    ref: str
    make: Callable[..., object]
    kwargs: dict[str, Any]
    description: str = ""
    version: str | None = None
    kwargs_schema: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.kwargs_schema = kwargs_schema_of(self.make, self.kwargs, self.ref)
        self._validator = Draft202012Validator(self.kwargs_schema)

    def merged(self, session_kwargs: dict[str, Any]) -> dict[str, Any]:
        """The server's kwargs under the session's, checked against the schema (422 ``invalid_kwargs``)."""
        kwargs = {**self.kwargs, **session_kwargs}
        errors = sorted(self._validator.iter_errors(kwargs), key=lambda e: list(e.absolute_path))
        if errors:
            shown = "; ".join(f"{'.'.join(map(str, e.absolute_path)) or '(kwargs)'}: {e.message}" for e in errors[:3])
            raise ProtocolError(422, "invalid_kwargs", f"{self.name}: {shown}")
        return kwargs

    def construct(self, session_kwargs: dict[str, Any]) -> Optimizer:
        """A fresh optimizer, as superred's factory call: what the constructor refuses is 422 ``invalid_kwargs``."""
        kwargs = self.merged(session_kwargs)
        try:
            made = self.make(**kwargs)
        except (TypeError, ValueError) as exc:
            raise ProtocolError(422, "invalid_kwargs", f"{self.name}(**kwargs) raised {error_text(exc)}") from exc
        except Exception as exc:
            raise ProtocolError(500, "optimizer_error", f"{self.name}(**kwargs) raised {error_text(exc)}") from exc
        if not isinstance(made, Optimizer):
            raise ProtocolError(
                500, "optimizer_error", f"{self.ref} returned {type(made).__name__}, not a superred Optimizer"
            )
        return made

    def wire(self, model: str | None) -> ServedOptimizerWire:
        return {
            "name": self.name,
            "ref": self.ref,
            "description": self.description,
            "version": self.version,
            "kwargs_schema": self.kwargs_schema,
            "kwargs": self.kwargs,
            "llm": {"model": model} if model else None,
        }


def _version_of(obj: object) -> str | None:
    """The installed distribution's version for the object's top-level module, when one is installed."""
    top = (getattr(obj, "__module__", "") or "").split(".")[0]
    try:
        dists = importlib.metadata.packages_distributions().get(top, [])
        return importlib.metadata.version(dists[0]) if dists else None
    except Exception:
        return None


def load_optimizer(spec: str, kwargs: dict[str, Any]) -> ServedOptimizer:
    """Resolves ``[NAME=]MODULE:ATTR`` and makes one optimizer with the server's kwargs, so a bad one fails at start."""
    name, sep, ref = spec.partition("=")
    if not sep:
        name, ref = "", spec
    obj = resolve(ref, "pair_optimizer:PAIROptimizer")
    attr = ref.partition(":")[2].split(".")[-1]
    name = name or attr
    if not _NAME.match(name):
        raise StartupError(f"--optimizer {spec}: the name {name!r} must be letters, digits, '_', '.' or '-'")
    if inspect.isclass(obj):
        if not issubclass(obj, Optimizer):
            raise StartupError(f"--optimizer {spec}: {ref} is a class but not a superred Optimizer")
        if inspect.isabstract(obj):
            raise StartupError(f"--optimizer {spec}: {ref} is abstract: serve a concrete Optimizer class")
    elif not callable(obj):
        raise StartupError(
            f"--optimizer {spec}: {ref} is a {type(obj).__name__}: expected an Optimizer class or a callable"
        )
    make: Callable[..., object] = obj
    served = ServedOptimizer(name, ref, make, kwargs, _doc(obj), _version_of(obj))
    try:
        # Made once now with the server's kwargs, unless a session must still give some (required, no default).
        if not served.kwargs_schema.get("required"):
            served.construct({})
    except ProtocolError as exc:
        raise StartupError(f"--optimizer {spec}: {exc.message}") from exc
    return served
