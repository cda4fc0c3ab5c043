"""Writes the results tree of superred's own quick start, with the real packages, into a folder.

The quick start: MinimalLLMChatTarget + the demo secret-leak claim + the demo prompt-list optimizer, run by
superred's Controller in this process. Its LLM is the deterministic fake (``fake_llm``) on loopback, so no key
and no network are needed. redscope's tests open the tree this writes (schema 4, as the pinned superred writes
it) to prove that the viewer reads what real superred writes, not a fixture made to look like it.

    python -m redscope_bridge.testing.quickstart_tree OUT_DIR [--max-runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from demo_prompt_list_optimizer import DemoPromptListOptimizer
from demo_secret_leak_claim import demo_secret_leak_claim
from minimal_llm_chat import MinimalLLMChatTarget
from superred.core.controller import Controller, TargetFactory

from redscope_bridge.testing import fake_llm


async def write_tree(out: Path, max_runs: int) -> None:
    """Runs the quick start into *out*."""
    llm = await fake_llm.start(0)
    try:
        factory = TargetFactory(
            create=lambda: MinimalLLMChatTarget(model="openai/gpt-4o-mini", api_base=llm.url, api_key="sk-fake"),
            concurrency=1,
        )
        probe = factory.create()
        system = next(iter(probe.security_domain.roots))
        await probe.teardown()
        controller = Controller(
            optimizer_factory=DemoPromptListOptimizer,
            target_factory=factory,
            security_claim=demo_secret_leak_claim(),
            scope=frozenset({system}),
            max_runs_per_task=max_runs,
            results_dir=out,
            report=False,
            attacker_label="demo-prompt-list",
            target_label="minimal-llm-chat",
            claim_label="demo-secret-leak",
        )
        await controller.run()
    finally:
        await llm.close()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m redscope_bridge.testing.quickstart_tree")
    p.add_argument("out", type=Path, help="an empty or new folder")
    p.add_argument("--max-runs", type=int, default=3)
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(write_tree(args.out, args.max_runs))
    [exp] = [d.name for d in args.out.iterdir() if d.is_dir()]
    print(exp, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
