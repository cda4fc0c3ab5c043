"""``redscope-bridge serve`` as a real process for the tests: started on a free port, always stopped."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]
_SERVING = re.compile(r"at (http://127\.0\.0\.1:\d+)")


@contextmanager
def bridge(*args: str, timeout_s: float = 120) -> Iterator[str]:
    """Yields the server's URL. Its stderr (one line per request) goes to a file kept beside the test's output."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "redscope_bridge", "serve", *args, "--port", "0"],
        cwd=PYTHON_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = _SERVING.search(line)
        if m is None:
            proc.wait(timeout_s)
            err = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"the bridge did not start: {line!r} {err}")
        yield m.group(1)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
