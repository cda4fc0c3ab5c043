"""superred's ChatbotTarget against any OpenAI-compatible endpoint, its key read from an environment variable.

    export OPENAI_API_KEY=sk-...                      # or whatever variable --kwargs names in key_env
    redscope-bridge serve chatbot_target_factory:chatbot --kwargs '{"model": "openai/gpt-4o-mini"}' \
      --claim demo_chatbot_claim:claim --port 8801
    npx redscope run --target http://127.0.0.1:8801 --scope user      # the served claim's tasks, no claim file

The key is read here, in the serving process, and handed to the target in memory: it is never on a command
line, in a file, in the manifest or in any results. ``api_base`` points at any OpenAI-compatible server (a
local vLLM or Ollama, a proxy); leave it out for OpenAI itself.
"""

from __future__ import annotations

import os

from chatbot_target import ChatbotTarget
from superred.core.controller import TargetFactory


def chatbot(
    model: str = "openai/gpt-4o-mini",
    api_base: str | None = None,
    key_env: str = "OPENAI_API_KEY",
    concurrency: int = 4,
) -> TargetFactory:
    key = os.environ.get(key_env)
    if not key:
        raise RuntimeError(f"set {key_env} to the endpoint's API key (any value for a keyless local server)")
    return TargetFactory(
        create=lambda: ChatbotTarget(model=model, api_key=key, api_base=api_base, max_attempts=2),
        concurrency=concurrency,
    )
