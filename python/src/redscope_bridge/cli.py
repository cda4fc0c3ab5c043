"""``redscope-bridge``: the command line. Parsing only; the work is in :mod:`redscope_bridge.serve_command`.

Nothing here imports superred: it imports litellm, which takes seconds, and ``--help`` needs none of it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import Any

EXIT_USAGE = 2

COST_MAP_NOTE = """\
Offline start: litellm (under superred) fetches its model price list from GitHub when it is imported, three
times with waits when there is no network. The bridge uses the price list shipped with litellm instead
(LITELLM_LOCAL_MODEL_COST_MAP=True), unless that variable is set already: set it to False to fetch."""

SERVE_EPILOG = f"""\
Served optimizers (Optimizer-over-HTTP, docs/optimizer-protocol.md): each --optimizer is an Optimizer class
or a callable returning one; --optimizer-kwargs right after it are its keyword arguments, which a session's
own kwargs override. The optimizers' LLM is the bridge's: --llm-model (or $REDSCOPE_LLM_MODEL), --llm-api-base
(or $REDSCOPE_LLM_API_BASE) and the key from $OPENAI_API_KEY (--llm-key-env names another variable); a
client never sends or sees it.

  redscope-bridge serve chatbot_target_factory:chatbot --optimizer pair_optimizer:PAIROptimizer \\
      --optimizer-kwargs '{{"n_streams": 1}}' --optimizer goal_passthrough_optimizer:GoalPassthroughOptimizer \\
      --llm-model openai/gpt-4o-mini --port 8801

{COST_MAP_NOTE}"""


class _Optimizer(argparse.Action):
    """``--optimizer SPEC``: a new entry that the ``--optimizer-kwargs`` after it configure."""

    def __call__(self, parser: argparse.ArgumentParser, ns: argparse.Namespace, value: Any, flag: Any = None) -> None:
        entries = list(getattr(ns, self.dest) or [])
        entries.append({"spec": value, "kwargs": None, "kwargs_file": None})
        setattr(ns, self.dest, entries)


class _OptimizerKwargs(argparse.Action):
    """``--optimizer-kwargs[-file]``: the keyword arguments of the ``--optimizer`` just before."""

    def __call__(self, parser: argparse.ArgumentParser, ns: argparse.Namespace, value: Any, flag: Any = None) -> None:
        entries = getattr(ns, "optimizer", None) or []
        key = "kwargs_file" if str(flag).endswith("-file") else "kwargs"
        if not entries:
            parser.error(f"{flag} must follow the --optimizer it configures")
        if entries[-1]["kwargs"] is not None or entries[-1]["kwargs_file"] is not None:
            parser.error(f"{flag}: --optimizer {entries[-1]['spec']} has its kwargs already")
        entries[-1][key] = value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="redscope-bridge",
        description="superred Targets over Target-over-HTTP v1 and superred Optimizers over Optimizer-over-HTTP v1",
        epilog=COST_MAP_NOTE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser(
        "serve",
        help="serve a superred Target, superred Optimizers, or both, over the protocols",
        epilog=SERVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("target", metavar="MODULE:ATTR", nargs="?", help="a Target class, TargetFactory or callable")
    s.add_argument("--kwargs", help="keyword arguments for ATTR, as a JSON object")
    s.add_argument("--kwargs-file", help="the same from a file (keep API keys out of the command line)")
    s.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1: loopback only)")
    s.add_argument("--port", type=int, default=8801, help="port (default 8801; 0 for any free port)")
    s.add_argument("--token-env", metavar="VAR", help="require Authorization: Bearer <the value of this variable>")
    s.add_argument("--concurrency", type=int, help="target sessions open at once (default: the factory's, else 4)")
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
    s.add_argument(
        "--claim-label",
        metavar="LABEL",
        help="the served claim's name in results (default: ATTR, or MODULE when ATTR is generic like claim)",
    )
    s.add_argument(
        "--references",
        metavar="FILE",
        help='framework references for the manifest, as JSON: {"tags": {"user": ["LLM01"]}, "claim": ["MEASURE 2.7"], '
        '"tasks": {"1": ["LLM07"]}} (optional; REDSCOPE_REFERENCES in the target\'s or claim\'s module does the same)',
    )
    o = s.add_argument_group("served optimizers")
    o.add_argument(
        "--optimizer",
        action=_Optimizer,
        metavar="[NAME=]MODULE:ATTR",
        help="serve a superred Optimizer (repeatable; NAME defaults to ATTR)",
    )
    o.add_argument("--optimizer-kwargs", action=_OptimizerKwargs, metavar="JSON", help="its keyword arguments")
    o.add_argument("--optimizer-kwargs-file", action=_OptimizerKwargs, metavar="FILE", help="the same from a file")
    o.add_argument(
        "--optimizer-concurrency",
        type=int,
        default=16,
        metavar="N",
        help="optimizer sessions open at once (default 16)",
    )
    o.add_argument(
        "--llm-model", metavar="M", help="the optimizers' LLM, as litellm names it (e.g. openai/gpt-4o-mini)"
    )
    o.add_argument("--llm-api-base", metavar="URL", help="its OpenAI-compatible endpoint (default: the provider's)")
    o.add_argument(
        "--llm-key-env", metavar="VAR", default="OPENAI_API_KEY", help="the variable holding its key (OPENAI_API_KEY)"
    )
    o.add_argument(
        "--llm-price",
        metavar="IN,OUT",
        help="USD per million input and output tokens, for a model litellm cannot price",
    )
    c = sub.add_parser("claim-file", help="print the redscope claim file for a claim served with serve --claim")
    c.add_argument("claim", metavar="MODULE:ATTR")
    c.add_argument("--claim-kwargs", help="keyword arguments for a callable claim, as a JSON object")
    c.add_argument("--name", help="the claim file's name (default: as serve --claim-label)")
    c.add_argument(
        "--references",
        metavar="FILE",
        help="framework references for the claim and its tasks, as serve --references takes them (tags are ignored)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    # Before anything imports litellm (through superred): its price list from the package, not from GitHub.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    args = _parser().parse_args(argv)
    from redscope_bridge.loader import StartupError
    from redscope_bridge.serve_command import claim_file_command, serve

    try:
        if args.command == "claim-file":
            return claim_file_command(args)
        return asyncio.run(serve(args))
    except StartupError as exc:
        print(f"redscope-bridge: {exc}", file=sys.stderr, flush=True)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
