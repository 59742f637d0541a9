#!/usr/bin/env bash
# `npm run admin -- tenant create --market CZ --name "Acme"`: operator commands (see docs/operations.md).
# `npm run admin -- parked list|redrive --queue <consumer queue>`: parked messages (runbook (b)).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"
bash scripts/bootstrap.sh >&2
if [ "${1:-}" = "parked" ]; then
  shift
  exec tsx scripts/parked.ts "$@"
fi
exec tsx services/employees/src/admin-cli.ts "$@"
