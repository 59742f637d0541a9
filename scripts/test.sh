#!/usr/bin/env bash
# `npm test`: installs what is missing, runs the static checks, starts RabbitMQ and FerretDB once for the
# whole run, runs every jest project against them, then checks the Helm chart. Extra arguments go to jest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"

bash scripts/bootstrap.sh
echo "[test] typecheck (tsc --noEmit)"
tsc -p tsconfig.json
echo "[test] generated contract types are current"
npm run --silent contracts:check
echo "[test] the regulations' generated tables are current with the vendored research"
npm run --silent regulations:check
echo "[test] docs/configuration.md is generated from the configuration schemas"
npm run --silent config:check
echo "[test] the chart's RabbitMQ definitions are rendered from the topology description"
npm run --silent topology:check
echo "[test] lint"
eslint --max-warnings=0 .
echo "[test] no import circles in services/, packages/, contracts/, tests/, bench/, scripts/ (decision 0169)"
tsx scripts/import-cycles.ts
echo "[test] FerretDB front and SQLite patch (go test)"
bash tools/ferretdb/build.sh --test
echo "[test] jest (unit + integration)"
tsx scripts/test-run.ts "$@"
if [ $# -eq 0 ]; then
  echo "[test] Helm chart"
  bash scripts/chart-check.sh
fi
echo "[test] all green"
