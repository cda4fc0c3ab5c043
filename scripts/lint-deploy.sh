#!/usr/bin/env bash
# Validates deploy/ offline: the Dockerfile with hadolint, the Kubernetes
# manifests against Kubernetes' schemas (strict: unknown fields are errors),
# the GitHub Actions workflow against its schema. The validators live in a
# git-ignored venv, .venv-deploy, made from deploy/lint-requirements.txt (and
# remade when that file changes). No Docker engine or cluster is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-deploy
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s deploy/lint-requirements.txt "$stamp"; then
  echo "Installing the deploy validators into $venv..."
  rm -rf "$venv"
  if ! python3 -m venv "$venv" 2> /dev/null; then
    # Debian's python3 comes without venv: add it, as test-all.sh adds chromium.
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv > /dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r deploy/lint-requirements.txt
  cp deploy/lint-requirements.txt "$stamp"
fi

echo "hadolint deploy/Dockerfile"
"$venv/bin/hadolint" deploy/Dockerfile
echo "kubernetes-validate --strict deploy/k8s/*.yaml"
"$venv/bin/kubernetes-validate" --strict --quiet deploy/k8s/*.yaml
echo "check-jsonschema (GitHub workflow schema) deploy/github/*.yml"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows deploy/github/*.yml

# actionlint goes further than the schema (expressions, matrix and needs references, shell
# scripts): a Go module, built once into the venv through the Go module proxy.
actionlint_version=v1.7.12
if [ ! -x "$venv/bin/actionlint" ] || [ "$("$venv/bin/actionlint" -version | head -1)" != "$actionlint_version" ]; then
  if command -v go > /dev/null; then
    echo "Building actionlint $actionlint_version into $venv..."
    GOBIN="$PWD/$venv/bin" GOFLAGS=-buildvcs=false go install "github.com/rhysd/actionlint/cmd/actionlint@$actionlint_version"
  fi
fi
if [ -x "$venv/bin/actionlint" ]; then
  echo "actionlint deploy/github/*.yml"
  "$venv/bin/actionlint" deploy/github/*.yml
else
  echo "actionlint NOT run: no Go toolchain to build it (the schema check above did run)"
fi
echo "deploy/ is valid"
