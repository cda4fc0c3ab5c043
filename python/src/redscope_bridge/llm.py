"""The served optimizers' LLM: one superred LLMClient per session, built here from the bridge's own settings.

The model, its base URL and its key come from the bridge's command line and environment, never from a
client: keys do not pass through the browser, the protocol or results. Each session's client is superred's
own (its per-task cost cap, its litellm pricing), wrapped to keep the replies it receives, so the client
can show what the attacker model said (PAIR's ``improvement`` and ``prompt``) beside the run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from superred.core.llm import LLMClient
from superred.core.types.llm import LLMConfig

from redscope_bridge.wire import LlmCallWire


@dataclass(frozen=True)
class LlmSettings:
    """``--llm-model`` / ``--llm-api-base`` / ``--llm-key-env``; the key is read once, and never shown."""

    model: str
    api_base: str | None = None
    api_key: str | None = field(default=None, repr=False)

    @classmethod
    def from_environment(cls, model: str | None, api_base: str | None, key_env: str) -> LlmSettings | None:
        model = model or os.environ.get("REDSCOPE_LLM_MODEL") or None
        if model is None:
            return None
        api_base = api_base or os.environ.get("REDSCOPE_LLM_API_BASE") or None
        return cls(model, api_base, os.environ.get(key_env) or None)


class RecordingLLMClient(LLMClient):
    """superred's LLMClient, keeping each reply's text and tokens until the session hands them out."""

    def __init__(self, config: LLMConfig, cost_cap_usd: float | None = None) -> None:
        super().__init__(config, cost_cap_usd)
        self._replies: list[LlmCallWire] = []

    async def complete(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        response = await super().complete(messages, **kwargs)
        usage = getattr(response, "usage", None)
        try:
            reply = response.choices[0].message.content
        except (AttributeError, IndexError):
            reply = None
        self._replies.append(
            {
                "reply": reply if isinstance(reply, str) else None,
                "prompt_tokens": int(getattr(usage, "prompt_tokens", 0) or 0),
                "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0),
            }
        )
        return response

    def take_calls(self) -> list[LlmCallWire]:
        """The completions since the last call, oldest first."""
        calls, self._replies = self._replies, []
        return calls


def session_client(settings: LlmSettings | None, cost_cap_usd: float | None) -> LLMClient:
    """A session's client: the bridge's model under the task's cap, or superred's zero-budget one without a model."""
    if settings is None:
        return LLMClient._make_noop()
    # litellm takes an api_base of None as the provider's default; superred's LLMConfig wants a string.
    config = LLMConfig(model=settings.model, api_base=settings.api_base, api_key=settings.api_key)  # type: ignore[arg-type]
    return RecordingLLMClient(config, cost_cap_usd)
