"""``redscope-bridge serve`` as a real process for the tests: started on a free port, always stopped."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]
_SERVING = re.compile(r"at (http://127\.0\.0\.1:\d+)")


@contextmanager
def bridge(
    *args: str, timeout_s: float = 120, cwd: Path = PYTHON_DIR, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Yields the server's URL; the process is stopped after. Modules in *cwd* are found without installing."""
    with bridge_logged(*args, timeout_s=timeout_s, cwd=cwd, env=env) as (url, _log):
        yield url


@contextmanager
def bridge_logged(
    *args: str, timeout_s: float = 120, cwd: Path = PYTHON_DIR, env: dict[str, str] | None = None
) -> Iterator[tuple[str, Callable[[], str]]]:
    """As ``bridge``, with a function that reads what the process has written on stderr so far."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", **(env or {})}
    # stderr (a line per request) into a file: an unread pipe fills up and blocks the server.
    with tempfile.TemporaryFile("w+") as log:

        def read_log() -> str:
            log.seek(0)
            return log.read()

        proc = subprocess.Popen(
            [sys.executable, "-m", "redscope_bridge", "serve", *args, "--port", "0"],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            m = _SERVING.search(line)
            if m is None:
                proc.wait(timeout_s)
                raise AssertionError(f"the bridge did not start: {line!r} {read_log()}")
            yield m.group(1), read_log
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
