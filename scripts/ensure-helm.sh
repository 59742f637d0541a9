#!/usr/bin/env bash
# Installs helm (HELM_VERSION) into .tools/bin once, with `go install`, and prints its path: used by
# scripts/chart-check.sh and by the local stack's --observe (the chart's alert rules, decision 0185).
# Messages go to standard error, the path alone to standard output.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
HELM_VERSION="v3.21.4"
HELM="$TOOLS/bin/helm"
say() { printf '[helm] %s\n' "$*" >&2; }
fail() { printf '[helm] FAIL: %s\n' "$*" >&2; exit 1; }

mkdir -p "$TOOLS/bin"
helm_module_version() { go version -m "$1" 2>/dev/null | awk '$1 == "mod" && $2 == "helm.sh/helm/v3" { print $3 }'; }
if [ -x "$HELM" ] && [ "$(helm_module_version "$HELM")" = "$HELM_VERSION" ]; then
  say "helm $HELM_VERSION present"
else
  command -v go >/dev/null || fail "Go is required to install helm (go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION)"
  say "installing helm $HELM_VERSION into .tools/bin (go install, about a minute the first time; or the machine's tool cache)"
  # shellcheck source=lib/installs.sh
  source "$ROOT/scripts/lib/installs.sh"
  cached_file "$HELM" "helm-$HELM_VERSION-$(go env GOVERSION GOOS GOARCH | tr '\n' '-')" \
    go_install helm "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >&2
  [ "$(helm_module_version "$HELM")" = "$HELM_VERSION" ] || fail "helm install did not produce $HELM_VERSION"
fi
printf '%s\n' "$HELM"
