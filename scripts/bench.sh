#!/usr/bin/env bash
# `npm run bench`: installs what is missing, starts the test-profile infrastructure (FerretDB, RabbitMQ) as
# `npm test` does, runs the webhook-dispatch benchmark against it, and stops what it started.
# Extra arguments go to bench/webhook-dispatch.ts (--quick, --profile, --runs N, --scenarios a,b, ...).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"

bash scripts/bootstrap.sh
exec tsx bench/infra-run.ts "$@"
