#!/usr/bin/env bash
# `npm run bench`: installs what is missing, starts the test-profile infrastructure (FerretDB, RabbitMQ) as
# `npm test` does, runs the webhook-dispatch benchmark against it, and stops what it started.
# Extra arguments go to bench/webhook-dispatch.ts (--quick, --profile, --runs N, --scenarios a,b, ...).
# `npm run bench -- store [...]` runs the store benchmark instead (bench/store.ts: stock vs patched FerretDB,
# its own servers on port 27057, no shared infrastructure). `npm run bench -- api [...]` runs the API-read
# benchmark (bench/api-reads.ts: gateway vs bare express, its own FerretDB). `npm run bench -- e2e [...]` runs
# the end-to-end benchmark (bench/e2e.ts: creates through the gateway to verified webhook deliveries, on a
# FerretDB and a RabbitMQ of its own); `npm run bench -- e2e-pair --base <commit> [...]` runs it from a base
# commit's tree and this one alternated, with issue 36's targets (bench/e2e-pair.ts). `npm run bench -- key-flood [...]` runs the unknown-key flood through the
# gateway (bench/key-flood.ts: a valid caller's latency with and without 10,000 random keys, its own FerretDB).
# `npm run bench -- receipts [...]` runs the receipt-reading benchmark (bench/receipts.ts: field accuracy and CPU
# per receipt for Tesseract and PP-OCR on the generated labelled set; no infrastructure). `npm run bench -- fx-boot`
# times reference-fx's first boot with the FX history and its restarts (bench/fx-boot.ts; the test-profile
# infrastructure).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"

bash scripts/bootstrap.sh
if [ "${1:-}" = "store" ]; then
  shift
  exec tsx bench/store.ts "$@"
fi
if [ "${1:-}" = "e2e" ]; then
  shift
  exec tsx bench/e2e.ts "$@"
fi
if [ "${1:-}" = "e2e-pair" ]; then
  shift
  exec tsx bench/e2e-pair.ts "$@"
fi
if [ "${1:-}" = "key-flood" ]; then
  shift
  exec tsx bench/key-flood.ts "$@"
fi
if [ "${1:-}" = "receipts" ]; then
  shift
  exec tsx bench/receipts.ts "$@"
fi
if [ "${1:-}" = "fx-boot" ]; then
  shift
  exec tsx bench/fx-boot.ts "$@"
fi
if [ "${1:-}" = "api" ]; then
  shift
  exec tsx bench/api-reads.ts "$@"
fi
exec tsx bench/infra-run.ts "$@"
