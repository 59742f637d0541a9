#!/usr/bin/env bash
# Installs schemathesis (pinned, from PyPI) into the project virtualenv .tools/fuzz-venv, idempotently:
# a present venv with the pinned version is left alone (one line, no network). Used by scripts/bootstrap.sh;
# the fuzz runs (tests/fuzz) call .tools/fuzz-venv/bin/schemathesis.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/fuzz-venv"
REQUIREMENTS=(schemathesis==4.32.5)

say() { printf '[bootstrap] %s\n' "$*"; }

if [ -x "$VENV/bin/schemathesis" ] && [ "$(cat "$VENV/.stamp" 2>/dev/null)" = "${REQUIREMENTS[*]}" ]; then
  say "schemathesis present in .tools/fuzz-venv (${REQUIREMENTS[*]})"
  exit 0
fi
command -v python3 >/dev/null || { say "python3 is required for the API fuzz (schemathesis)"; exit 1; }
say "installing ${REQUIREMENTS[*]} into .tools/fuzz-venv (pip)"
rm -rf "$VENV"
python3 -m venv "$VENV" || { say "python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 1; }
"$VENV/bin/pip" install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}" \
  || { say "pip install into .tools/fuzz-venv failed"; exit 1; }
echo "${REQUIREMENTS[*]}" >"$VENV/.stamp"
