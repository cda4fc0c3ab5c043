"""redscope-bridge: superred Targets over redscope's Target-over-HTTP protocol, both ways.

- ``redscope-bridge serve MODULE:ATTR`` puts any superred Target behind the protocol (:mod:`.app`).
- :class:`RemoteTarget` is a superred Target that drives any protocol server (:mod:`.remote_target`).

Imports are lazy: superred pulls in litellm, which takes seconds to import, and the test helpers
(the fake LLM) must start without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redscope_bridge.remote_target import RemoteTarget, RemoteTargetFactory, remote_target_factory

__all__ = ["RemoteTarget", "RemoteTargetFactory", "remote_target_factory"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in __all__:
        from redscope_bridge import remote_target

        return getattr(remote_target, name)
    raise AttributeError(f"module 'redscope_bridge' has no attribute {name!r}")
