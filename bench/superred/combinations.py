"""superred's own enumeration, the baseline of `npm run bench -- goals`.

Loads superred's security_domain.py on its own (importing the package would
pull in litellm and its start-up, which would flatter redscope), builds the
forest of FOREST.json in file order, and either
  --print: prints every distinct combination as `redscope combinations` does
           (one JSON array of sorted name lists), the whole-process figure, or
  --time N: enumerates N times in process and prints the wall times as JSON.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time


def load_security_domain():
    package = importlib.util.find_spec("superred")
    if package is None or not package.submodule_search_locations:
        raise SystemExit("superred is not installed in this python")
    path = os.path.join(package.submodule_search_locations[0], "core", "types", "security_domain.py")
    spec = importlib.util.spec_from_file_location("superred_security_domain", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def build(module, forest_path):
    with open(forest_path, encoding="utf-8") as f:
        forest = json.load(f)
    by_name = {}
    tags = []
    for t in forest["tags"]:
        tag = module.SecurityDomainTag(t["name"], by_name[t["parent"]] if t["parent"] else None)
        by_name[t["name"]] = tag
        tags.append(tag)
    return module.SecurityDomain(tags)


def main() -> None:
    forest_path, mode = sys.argv[1], sys.argv[2]
    domain = build(load_security_domain(), forest_path)
    if mode == "--print":
        combos = domain.distinct_combinations()
        out = sys.stdout
        out.write("[")
        out.write(",".join(json.dumps(sorted(t.name for t in c), separators=(",", ":")) for c in combos))
        out.write("]\n")
        return
    runs = int(sys.argv[3])
    samples = []
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        count = len(domain.distinct_combinations())
        samples.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"count": count, "ms": samples}))


main()
