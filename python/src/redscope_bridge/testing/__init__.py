"""Test helpers that ship with the bridge: a deterministic fake OpenAI-compatible LLM and protocol test targets."""
