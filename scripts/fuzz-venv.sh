#!/usr/bin/env bash
# Installs schemathesis (pinned, from PyPI) into the project virtualenv .tools/fuzz-venv, idempotently:
# a present venv with the pinned version is left alone (one line, no network). Used by scripts/bootstrap.sh;
# the fuzz runs (tests/fuzz) call .tools/fuzz-venv/bin/schemathesis.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/fuzz-venv"
REQUIREMENTS=(schemathesis==4.32.5)

say() { printf '[bootstrap] %s\n' "$*"; }
# shellcheck source=lib/installs.sh
source "$ROOT/scripts/lib/installs.sh"

pinned_venv "$VENV" -- "${REQUIREMENTS[@]}"
[ "$PINNED_VENV_BUILT" = 1 ] || say "schemathesis present in .tools/fuzz-venv (${REQUIREMENTS[*]})"
