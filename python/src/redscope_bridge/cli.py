"""``redscope-bridge serve MODULE:ATTR ...``: argument parsing, loading the target, start-up errors."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from superred.core.controller import TargetFactory
from superred.core.interfaces.target import Target
from superred.core.interfaces.task import Task

from redscope_bridge.app import ServeOptions, start
from redscope_bridge.claim_host import ClaimHostedTarget, claim_file, load_claim, manifest_claim
from redscope_bridge.codec import first_paragraph, manifest_of
from redscope_bridge.errors import error_text
from redscope_bridge.loader import Loaded, StartupError, load_factory, load_kwargs
from redscope_bridge.logs import one_line_logging
from redscope_bridge.redact import Redactor, secrets_in
from redscope_bridge.schema import problems

EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="redscope-bridge", description="superred Targets over Target-over-HTTP v1")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="serve a superred Target (class, TargetFactory or callable) over the protocol")
    s.add_argument("target", metavar="MODULE:ATTR")
    s.add_argument("--kwargs", help="keyword arguments for ATTR, as a JSON object")
    s.add_argument("--kwargs-file", help="the same from a file (keep API keys out of the command line)")
    s.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1: loopback only)")
    s.add_argument("--port", type=int, default=8801, help="port (default 8801; 0 for any free port)")
    s.add_argument("--token-env", metavar="VAR", help="require Authorization: Bearer <the value of this variable>")
    s.add_argument("--concurrency", type=int, help="sessions open at once (default: the factory's, else 4)")
    s.add_argument("--name", help="the manifest's name (default: ATTR)")
    s.add_argument(
        "--allow-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="a browser origin allowed to call (repeatable; default: loopback origins)",
    )
    s.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name answered besides loopback ones (repeatable; a leading dot allows subdomains)",
    )
    s.add_argument(
        "--idle-timeout", type=float, default=600.0, metavar="S", help="idle sessions expire (default 600 s)"
    )
    s.add_argument("--claim", metavar="MODULE:ATTR", help="serve a superred claim beside the target (see claim-file)")
    s.add_argument("--claim-kwargs", help="keyword arguments for a callable --claim, as a JSON object")
    c = sub.add_parser("claim-file", help="print the redscope claim file for a claim served with serve --claim")
    c.add_argument("claim", metavar="MODULE:ATTR")
    c.add_argument("--claim-kwargs", help="keyword arguments for a callable claim, as a JSON object")
    c.add_argument("--name", help="the claim file's name (default: ATTR)")
    return p


async def _serve(args: argparse.Namespace) -> int:
    if args.concurrency is not None and args.concurrency < 1:
        raise StartupError("--concurrency must be at least 1")
    if not 0 <= args.port <= 65535:
        raise StartupError(f"--port {args.port}: not a port number (0 for any free port)")
    if args.idle_timeout <= 0:
        raise StartupError("--idle-timeout must be a positive number of seconds")
    token: str | None = None
    if args.token_env is not None:
        token = os.environ.get(args.token_env) or None
        if token is None:
            raise StartupError(f"--token-env {args.token_env}: that variable is not set or empty")
    if token is None and not _is_loopback(args.host):
        # Beyond loopback, anyone who can reach the port could drive the target (serve-target and view refuse too).
        raise StartupError(
            f"--host {args.host} listens beyond this machine: give a token (--token-env VAR), "
            "which clients send as a bearer token"
        )
    kwargs = load_kwargs(args.kwargs, args.kwargs_file)
    secrets = [*secrets_in(kwargs), *([token] if token else [])]
    redact = Redactor(secrets)
    one_line_logging(redact)
    try:
        return await _serve_loaded(args, kwargs, token, secrets)
    except StartupError as exc:
        # A factory whose login failed may quote its key in the message.
        raise StartupError(redact(str(exc))) from None


async def _serve_loaded(args: argparse.Namespace, kwargs: dict[str, Any], token: str | None, secrets: list[str]) -> int:
    loaded = load_factory(args.target, kwargs, args.concurrency)
    tasks: list[Task[Any]] | None = None
    if args.claim is not None:
        tasks = load_claim(args.claim, load_kwargs(args.claim_kwargs, None, "--claim-kwargs"))
        loaded = with_claim(loaded, tasks)
    elif args.claim_kwargs is not None:
        raise StartupError("--claim-kwargs needs --claim")
    # One probe at start-up: a factory or target that fails is said now, not at the first session.
    try:
        probe = loaded.probe or loaded.factory.create()
    except Exception as exc:
        raise StartupError(f"{args.target}: creating the target raised {error_text(exc)}") from exc
    try:
        name = args.name or loaded.name
        manifest = manifest_of(
            probe,
            name=name,
            description=loaded.description or first_paragraph(type(probe)),
            concurrency=loaded.factory.concurrency,
        )
        if tasks is not None:
            manifest["claim"] = manifest_claim(tasks, args.claim.partition(":")[2].split(".")[-1], args.claim)
    except Exception as exc:
        raise StartupError(f"{args.target}: reading its manifest raised {error_text(exc)}") from exc
    finally:
        with contextlib.suppress(Exception):
            await probe.teardown()
    bad = problems("Manifest", manifest)
    if bad:
        raise StartupError(f"{args.target}: its manifest breaks the protocol: {'; '.join(bad[:3])}")
    options = ServeOptions(
        factory=loaded.factory,
        manifest=manifest,
        concurrency=loaded.factory.concurrency,
        token=token,
        allowed_origins=args.allow_origin,
        allowed_hosts=args.allow_host,
        idle_timeout_s=args.idle_timeout,
        secrets=secrets,
    )
    try:
        running = await start(options, args.host, args.port)
    except OSError as exc:
        hint = "; try --port 0" if exc.errno == 98 else ""
        raise StartupError(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc}){hint}") from exc
    auth = ", bearer token required" if token else ""
    print(f"serving {name} at {running.url} (manifest: {running.url}/manifest){auth}; Ctrl-C to stop", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await running.close()
    return 0


def _is_loopback(host: str) -> bool:
    name = host.strip().lower().strip("[]")
    return name in ("localhost", "::1") or name.endswith(".localhost") or name.startswith("127.")


def with_claim(loaded: Loaded, tasks: list[Task[Any]]) -> Loaded:
    inner = loaded.factory

    def create() -> Target:
        return ClaimHostedTarget(inner.create(), tasks)

    probe = ClaimHostedTarget(loaded.probe, tasks) if loaded.probe is not None else None
    return Loaded(TargetFactory(create=create, concurrency=inner.concurrency), loaded.name, loaded.description, probe)


def _claim_file(args: argparse.Namespace) -> int:
    tasks = load_claim(args.claim, load_kwargs(args.claim_kwargs, None, "--claim-kwargs"))
    name = args.name or args.claim.partition(":")[2].split(".")[-1]
    print(json.dumps(claim_file(tasks, name, args.claim), indent=2, ensure_ascii=False))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    # litellm fetches a model cost map at import unless told not to; the bridge never needs the network for it.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    args = _parser().parse_args(argv)
    try:
        if args.command == "claim-file":
            return _claim_file(args)
        return asyncio.run(_serve(args))
    except StartupError as exc:
        print(f"redscope-bridge: {exc}", file=sys.stderr, flush=True)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
