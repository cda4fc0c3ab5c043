"""The secrets the bridge holds, masked out of every answer and log line it writes.

The bridge is given keys (``--kwargs`` such as ``api_key``, its environment's ``OPENAI_API_KEY``...) to call
the target's LLM; a provider that answers 401 quoting the key ("Incorrect API key provided: sk-...") would
otherwise hand it to the client in a run's error, and the client writes it into its results.
Masked: each secret as it is, as JSON escapes it, and percent-encoded. Not masked: a secret split across two
answers, or transformed (base64, reversed, spelled out) by the target.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

MASK = "[redacted]"
#: Shorter values would mask ordinary words (and no real key is this short).
MIN_SECRET_CHARS = 8
#: Names of keyword arguments and environment variables whose values are secrets.
SECRET_NAME = re.compile(r"key|token|secret|passw(or)?d|credential", re.IGNORECASE)


def secrets_in(kwargs: Mapping[str, Any], environ: Mapping[str, str] = os.environ) -> list[str]:
    """The secret-named values of *kwargs* (at any depth) and of the environment."""
    found: list[str] = []

    def walk(name: str, value: object) -> None:
        if isinstance(value, str):
            if SECRET_NAME.search(name):
                found.append(value)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                walk(str(k), v)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(name, v)

    walk("", dict(kwargs))
    found.extend(v for k, v in environ.items() if SECRET_NAME.search(k))
    return found


class Redactor:
    """``redactor(text)``: *text* with every form of every secret replaced by ``[redacted]``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms: set[str] = set()
        for s in secrets:
            if len(s) < MIN_SECRET_CHARS:
                continue
            forms.update({s, json.dumps(s)[1:-1], json.dumps(s, ensure_ascii=False)[1:-1], quote(s, safe="")})
        # Longest first: a secret that contains another is masked whole.
        self._forms = sorted(forms, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __call__(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, MASK)
        return text
