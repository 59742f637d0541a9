#!/usr/bin/env bash
# `npm start`: installs what is missing, then runs the whole stack in the foreground (Ctrl-C stops it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"
bash scripts/bootstrap.sh
exec tsx scripts/stack.ts "$@"
