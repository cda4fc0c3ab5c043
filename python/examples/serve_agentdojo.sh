#!/usr/bin/env bash
# AgentDojo (32 tags: system, user, and the banking/workspace/slack/travel tool stores) with superred's AgentDojo
# claim, served on the bridge. Its model is any OpenAI-compatible endpoint; AgentDojo calls it with the openai SDK.
#   OPENAI_API_KEY=sk-... bash serve_agentdojo.sh [API_BASE]
# then, in the repository:
#   npx redscope run --target http://127.0.0.1:8803 --scope banking,workspace --inject-on post --template @payload.txt
set -euo pipefail
: "${OPENAI_API_KEY:?set OPENAI_API_KEY (any value for a keyless local server)}"
api_base="${1:-https://api.openai.com/v1}"
kwargs="$(mktemp)"
trap 'rm -f "$kwargs"' EXIT
# The key goes into a private temporary file, read once at start-up: never onto the command line.
umask 077
python - "$kwargs" "$api_base" <<'PY'
import json, os, sys
json.dump({"pipeline_model": "openai/gpt-4o-mini", "api_base": sys.argv[2], "api_key": os.environ["OPENAI_API_KEY"]},
          open(sys.argv[1], "w"))
PY
# One banking and one workspace injection task of the canonical pairs; leave --claim-kwargs out for all 27.
exec redscope-bridge serve agentdojo_target:AgentDojoTarget --kwargs-file "$kwargs" --name agentdojo --port 8803 \
  --claim agentdojo_claim:agentdojo_layer1_claim \
  --claim-kwargs '{"pairs": [["banking", "user_task_1", "injection_task_5"], ["workspace", "user_task_26", "injection_task_1"]]}'
