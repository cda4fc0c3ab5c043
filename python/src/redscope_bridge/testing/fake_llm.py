"""A deterministic fake OpenAI-compatible LLM server on loopback: no key, no network.

    python -m redscope_bridge.testing.fake_llm --port 0     # prints "fake LLM at http://127.0.0.1:PORT/v1"

``POST /v1/chat/completions`` answers an ordinary chat completion (``choices[0].message``,
``finish_reason``, ``usage``), computed by the behaviours in :mod:`.behaviours`; ``GET /v1/models``
lists the model. Every request is kept (``GET /_requests``) so tests can see what reached the model.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from redscope_bridge.testing.behaviours import DEFAULT_CHAIN, Behaviour, ChatRequest, answer

DEFAULT_MODEL = "gpt-4o-mini"


def _usage(req: ChatRequest, content: str) -> dict[str, int]:
    prompt = sum(len(json.dumps(m)) // 4 for m in req.messages)
    completion = max(1, len(content) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def create_app(chain: Sequence[Behaviour] = DEFAULT_CHAIN) -> web.Application:
    counter = itertools.count(1)
    seen: list[dict[str, Any]] = []

    async def completions(request: web.Request) -> web.Response:
        try:
            body = await request.json()
            req = ChatRequest(
                model=str(body.get("model", DEFAULT_MODEL)),
                messages=list(body["messages"]),
                tools=list(body.get("tools") or []),
                raw=body,
            )
        except (ValueError, KeyError, TypeError) as exc:
            return web.json_response(
                {"error": {"message": f"bad request: {exc}", "type": "invalid_request_error"}}, status=400
            )
        seen.append(body)
        reply = answer(chain, req)
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = reply.tool_calls
        return web.json_response(
            {
                "id": f"chatcmpl-fake-{next(counter)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": req.model,
                "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
                "usage": _usage(req, reply.content or ""),
            }
        )

    async def models(_request: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": DEFAULT_MODEL, "object": "model", "owned_by": "fake"}]}
        )

    async def requests(_request: web.Request) -> web.Response:
        return web.json_response(seen)

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_post("/chat/completions", completions)
    app.router.add_get("/v1/models", models)
    app.router.add_get("/_requests", requests)
    return app


@dataclass
class RunningFakeLlm:
    url: str  # ends in /v1, as an OpenAI base URL
    runner: web.AppRunner

    async def close(self) -> None:
        await self.runner.cleanup()


async def start(port: int = 0, chain: Sequence[Behaviour] = DEFAULT_CHAIN) -> RunningFakeLlm:
    runner = web.AppRunner(create_app(chain), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    sockets = getattr(site._server, "sockets", None) or []
    bound = sockets[0].getsockname()[1] if sockets else port
    return RunningFakeLlm(url=f"http://127.0.0.1:{bound}/v1", runner=runner)


async def _main(port: int) -> None:
    running = await start(port)
    print(f"fake LLM at {running.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.close()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m redscope_bridge.testing.fake_llm")
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: any free port)")
    args = p.parse_args(argv)
    asyncio.run(_main(args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
