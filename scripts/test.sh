#!/usr/bin/env bash
# `npm test`: installs what is missing, runs the static checks, starts RabbitMQ and FerretDB once for the
# whole run, runs every jest project against them, then checks the Helm chart. Extra arguments go to jest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"

# Each step says how long it took, so a slow step shows in the log (docs/benchmarks.md, "The test suite").
step() {
  local what=$1 started=$SECONDS
  shift
  echo "[test] $what"
  "$@"
  echo "[test] ... $((SECONDS - started)) s"
}

# The type check and the lint are the two long static steps, each one process on one core: side by side
# (decision 0209). Each one's output is printed after both ended, the first failure decides.
typecheck_and_lint() {
  local out
  out=$(mktemp -d)
  tsc -p tsconfig.json >"$out/tsc" 2>&1 &
  local tsc=$!
  eslint --max-warnings=0 . >"$out/eslint" 2>&1 &
  local lint=$!
  local tsc_rc=0 lint_rc=0
  wait "$tsc" || tsc_rc=$?
  wait "$lint" || lint_rc=$?
  cat "$out/tsc" "$out/eslint"
  rm -rf "$out"
  [ "$tsc_rc" -eq 0 ] || { echo "[test] typecheck failed"; return "$tsc_rc"; }
  [ "$lint_rc" -eq 0 ] || { echo "[test] lint failed"; return "$lint_rc"; }
}

all=$SECONDS
step "install what is missing" bash scripts/bootstrap.sh
step "typecheck (tsc --noEmit) and lint (eslint), side by side" typecheck_and_lint
step "generated contract types are current" npm run --silent contracts:check
step "the regulations' generated tables are current with the vendored research" npm run --silent regulations:check
step "docs/configuration.md is generated from the configuration schemas" npm run --silent config:check
step "the chart's RabbitMQ definitions are rendered from the topology description" npm run --silent topology:check
step "no import circles in services/, packages/, contracts/, tests/, bench/, scripts/ (decision 0169)" \
  tsx scripts/import-cycles.ts
step "FerretDB front and SQLite patch (go test)" bash tools/ferretdb/build.sh --test
step "jest (unit + integration)" tsx scripts/test-run.ts "$@"
if [ $# -eq 0 ]; then
  step "Helm chart" bash scripts/chart-check.sh
fi
echo "[test] all green in $((SECONDS - all)) s"
