"""``redscope-bridge serve ...`` at work: load the target, claim and optimizers, check them, listen.

Imported by :mod:`redscope_bridge.cli` only once the command line has parsed: superred imports litellm,
which takes seconds, and ``--help`` needs none of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
from typing import Any

from superred.core.controller import TargetFactory
from superred.core.interfaces.target import Target
from superred.core.interfaces.task import Task

from redscope_bridge.app import ServeOptions, start
from redscope_bridge.claim_host import ClaimHostedTarget, claim_file, claim_label, load_claim, manifest_claim
from redscope_bridge.codec import first_paragraph, manifest_of
from redscope_bridge.errors import error_text
from redscope_bridge.llm import LlmSettings
from redscope_bridge.loader import Loaded, StartupError, load_factory, load_kwargs
from redscope_bridge.logs import one_line_logging
from redscope_bridge.optimizer_host import OptimizerHost
from redscope_bridge.optimizer_loader import ServedOptimizer, load_optimizer
from redscope_bridge.redact import Redactor, secrets_in
from redscope_bridge.references import (
    apply_claim_references,
    apply_references,
    merged,
    module_references,
    read_references_file,
)
from redscope_bridge.schema import problems


async def serve(args: argparse.Namespace) -> int:
    _check_numbers(args)
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
    # Every secret the bridge holds is masked out of its answers and log lines (redact.py): the target's kwargs,
    # the optimizers' kwargs and LLM key, the token. Known before anything is loaded, so start-up errors are masked too.
    secrets = [*secrets_in(load_kwargs(args.kwargs, args.kwargs_file)), *([token] if token else [])]
    for entry in args.optimizer or []:
        where = f"--optimizer {entry['spec']} --optimizer-kwargs"
        secrets += secrets_in(load_kwargs(entry["kwargs"], entry["kwargs_file"], where))
    redact = Redactor(secrets)
    one_line_logging(redact)
    try:
        return await _serve_loaded(args, token, secrets)
    except StartupError as exc:
        # A factory whose login failed may quote its key in the message.
        raise StartupError(redact(str(exc))) from None


async def _serve_loaded(args: argparse.Namespace, token: str | None, secrets: list[str]) -> int:
    target = await _target(args) if args.target is not None else None
    if target is None:
        for flag in ("kwargs", "kwargs_file", "claim", "claim_kwargs", "name", "concurrency", "references"):
            if getattr(args, flag) is not None:
                raise StartupError(f"--{flag.replace('_', '-')} needs a target (serve MODULE:ATTR ...)")
    host = _optimizers(args)
    if target is None and host is None:
        raise StartupError("nothing to serve: give a target (MODULE:ATTR), --optimizer MODULE:ATTR, or both")
    factory, manifest = target if target is not None else (None, None)
    held = [*secrets, *([host.llm.api_key] if host is not None and host.llm is not None and host.llm.api_key else [])]
    options = ServeOptions(
        factory=factory,
        manifest=manifest,
        concurrency=factory.concurrency if factory is not None else 1,
        token=token,
        allowed_origins=args.allow_origin,
        allowed_hosts=args.allow_host,
        idle_timeout_s=args.idle_timeout,
        optimizers=host,
        secrets=held,
    )
    if host is not None:
        mask = Redactor(held)
        host.log = lambda line: options.log(mask(line))
        if host.llm is not None and host.llm.api_key is None:
            options.log(f"note: ${args.llm_key_env} is not set: the optimizers' LLM calls go without a key")
    try:
        running = await start(options, args.host, args.port)
    except OSError as exc:
        hint = "; try --port 0" if exc.errno == 98 else ""
        raise StartupError(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc}){hint}") from exc
    auth = ", bearer token required" if token else ""
    url = running.url
    served = "" if host is None else f"optimizers {', '.join(o.name for o in host.optimizers)}: {url}/optimizers"
    if manifest is not None:
        where = f"manifest: {url}/manifest" + (f"; {served}" if served else "")
        print(f"serving {manifest['name']} at {url} ({where}){auth}; Ctrl-C to stop", flush=True)
    else:
        print(f"serving optimizers at {url} ({served}){auth}; Ctrl-C to stop", flush=True)
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


def _check_numbers(args: argparse.Namespace) -> None:
    if args.concurrency is not None and args.concurrency < 1:
        raise StartupError("--concurrency must be at least 1")
    if args.optimizer_concurrency < 1:
        raise StartupError("--optimizer-concurrency must be at least 1")
    if not 0 <= args.port <= 65535:
        raise StartupError(f"--port {args.port}: not a port number (0 for any free port)")
    if args.idle_timeout <= 0:
        raise StartupError("--idle-timeout must be a positive number of seconds")


async def _target(args: argparse.Namespace) -> tuple[TargetFactory, dict[str, Any]]:
    """The target's factory and its manifest, read once from a probe instance."""
    kwargs = load_kwargs(args.kwargs, args.kwargs_file)
    loaded = load_factory(args.target, kwargs, args.concurrency)
    tasks: list[Task[Any]] | None = None
    if args.claim is not None:
        tasks = load_claim(args.claim, load_kwargs(args.claim_kwargs, None, "--claim-kwargs"))
        loaded = with_claim(loaded, tasks)
    else:
        for flag in ("claim_kwargs", "claim_label"):
            if getattr(args, flag) is not None:
                raise StartupError(f"--{flag.replace('_', '-')} needs --claim")
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
            # The served target's own words, never the claim wrapper's.
            description=loaded.description or first_paragraph(type(getattr(probe, "inner", probe))),
            concurrency=loaded.factory.concurrency,
        )
        if tasks is not None:
            manifest["claim"] = manifest_claim(tasks, args.claim_label or claim_label(args.claim), args.claim)
    except Exception as exc:
        raise StartupError(f"{args.target}: reading its manifest raised {error_text(exc)}") from exc
    finally:
        with contextlib.suppress(Exception):
            await probe.teardown()
    # Optional framework references: the modules' REDSCOPE_REFERENCES, then --references (last word).
    refs = merged(
        module_references(args.target),
        module_references(args.claim) if args.claim is not None else None,
        read_references_file(args.references) if args.references is not None else None,
    )
    if not refs.empty:
        apply_references(
            manifest, refs, f"--references {args.references}" if args.references else "REDSCOPE_REFERENCES"
        )
    bad = problems("Manifest", manifest)
    if bad:
        raise StartupError(f"{args.target}: its manifest breaks the protocol: {'; '.join(bad[:3])}")
    return loaded.factory, manifest


def _optimizers(args: argparse.Namespace) -> OptimizerHost | None:
    """The ``--optimizer`` entries, each made once with its kwargs, and the LLM their sessions get."""
    specs: list[dict[str, Any]] = args.optimizer or []
    llm = LlmSettings.from_environment(args.llm_model, args.llm_api_base, args.llm_key_env)
    if not specs:
        for flag in ("llm_model", "llm_api_base", "llm_price"):
            if getattr(args, flag) is not None:
                raise StartupError(f"--{flag.replace('_', '-')} needs --optimizer")
        return None
    if llm is not None:
        _check_pricing(llm.model, args.llm_price)
    elif args.llm_price is not None or args.llm_api_base is not None:
        raise StartupError("--llm-price and --llm-api-base need --llm-model (or $REDSCOPE_LLM_MODEL)")
    served: list[ServedOptimizer] = []
    for entry in specs:
        kwargs = load_kwargs(entry["kwargs"], entry["kwargs_file"], f"--optimizer {entry['spec']} --optimizer-kwargs")
        one = load_optimizer(entry["spec"], kwargs)
        if any(o.name == one.name for o in served):
            raise StartupError(f"--optimizer {entry['spec']}: the name '{one.name}' is served twice (NAME=MODULE:ATTR)")
        served.append(one)
    return OptimizerHost(served, llm, args.optimizer_concurrency)


def _check_pricing(model: str, price: str | None) -> None:
    """superred's client prices every call with litellm: a model litellm cannot price fails every call."""
    import litellm

    if price is not None:
        try:
            per_in, per_out = (float(p) for p in price.split(","))
        except ValueError as exc:
            raise StartupError(
                f"--llm-price {price}: expected IN,OUT in USD per million tokens (e.g. 0.15,0.6)"
            ) from exc
        provider = model.split("/", 1)[0] if "/" in model else "openai"
        litellm.register_model(
            {
                model: {
                    "input_cost_per_token": per_in / 1e6,
                    "output_cost_per_token": per_out / 1e6,
                    "litellm_provider": provider,
                    "mode": "chat",
                }
            }
        )
        return
    try:
        litellm.get_model_info(model)
    except Exception as exc:
        raise StartupError(
            f"--llm-model {model}: litellm has no price for this model, so superred's LLM client would fail every "
            "call; name a model it knows (e.g. openai/gpt-4o-mini) or give --llm-price IN,OUT (USD per million tokens)"
        ) from exc


def with_claim(loaded: Loaded, tasks: list[Task[Any]]) -> Loaded:
    inner = loaded.factory

    def create() -> Target:
        return ClaimHostedTarget(inner.create(), tasks)

    probe = ClaimHostedTarget(loaded.probe, tasks) if loaded.probe is not None else None
    return Loaded(TargetFactory(create=create, concurrency=inner.concurrency), loaded.name, loaded.description, probe)


def claim_file_command(args: argparse.Namespace) -> int:
    tasks = load_claim(args.claim, load_kwargs(args.claim_kwargs, None, "--claim-kwargs"))
    name = args.name or claim_label(args.claim)
    file = claim_file(tasks, name, args.claim)
    # The claim's and its tasks' framework references, as serve puts them in the manifest (a claim file has no tags).
    refs = merged(
        module_references(args.claim),
        read_references_file(args.references) if args.references is not None else None,
    )
    apply_claim_references(file, refs, f"--references {args.references}" if args.references else "REDSCOPE_REFERENCES")
    print(json.dumps(file, indent=2, ensure_ascii=False))
    return 0
