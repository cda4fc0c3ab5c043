from __future__ import annotations

import asyncio
import gc
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from superred.core.controller import TargetFactory

from redscope_bridge.app import RunningServer, ServeOptions, start
from redscope_bridge.claim_host import manifest_claim
from redscope_bridge.codec import manifest_of
from redscope_bridge.testing import fake_llm


class LoopThread:
    """An asyncio loop in a thread for servers: superred's blocking calls in the test's loop never deadlock."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float = 60) -> Any:
        fut: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return fut.result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def loop_thread() -> Iterator[LoopThread]:
    lt = LoopThread()
    yield lt
    lt.stop()


ServeFn = Callable[..., RunningServer]


@pytest.fixture
def serve(loop_thread: LoopThread) -> Iterator[ServeFn]:
    """Serves a TargetFactory over the protocol on 127.0.0.1 (a free port); stopped after the test."""
    running: list[RunningServer] = []

    def _serve(factory: TargetFactory | None, name: str = "target", claim: Any = None, **options: Any) -> RunningServer:
        """*claim*: ``(tasks, name)`` puts the served claim's tasks in the manifest, as ``serve --claim`` does.
        No *factory*: only the optimizers given as ``optimizers=OptimizerHost(...)`` are served."""
        manifest: dict[str, Any] | None = None
        if factory is not None:
            probe = factory.create()
            manifest = manifest_of(probe, name=name, description="", concurrency=factory.concurrency)
            if claim is not None:
                manifest["claim"] = manifest_claim(claim[0], claim[1], "tests")
            loop_thread.run(probe.teardown())
        concurrency = factory.concurrency if factory is not None else 1
        opts = ServeOptions(factory=factory, manifest=manifest, concurrency=concurrency, log=lambda _l: None, **options)
        server: RunningServer = loop_thread.run(start(opts))
        running.append(server)
        return server

    yield _serve
    for server in running:
        loop_thread.run(server.close())


@pytest.fixture
def fake_llm_url(loop_thread: LoopThread) -> Iterator[str]:
    running = loop_thread.run(fake_llm.start(0))
    yield running.url
    loop_thread.run(running.close())


@pytest.fixture
def settled_capsys(capsys: pytest.CaptureFixture[str]) -> pytest.CaptureFixture[str]:
    """capsys after collecting earlier tests' garbage: asyncio warns on stderr when a pending task of a closed loop
    (litellm's logging worker) is collected, and a test that counts stderr lines must not see that."""
    gc.collect()
    capsys.readouterr()
    return capsys
