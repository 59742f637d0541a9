#!/usr/bin/env bash
# Builds ferretdb-local against FerretDB v1.24.2 with our SQLite patch (sqlite-pushdown.patch) applied.
#
#   build.sh OUT            patched build into OUT
#   build.sh --stock OUT    upstream FerretDB as is (for benchmarks that compare the two)
#   build.sh --test [ARGS]  `go test ARGS` of this module against the patched FerretDB
#
# Go refuses -overlay for files in the module cache, so the module is copied out of the cache into
# .tools/, patched there, and used through `-modfile` (a copy of go.mod with a `replace`): the committed
# go.mod stays the upstream requirement and go.sum still pins every other dependency.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$ROOT/.tools/ferretdb-build"
MODULE="github.com/FerretDB/FerretDB"
VERSION="v1.24.2"
PATCH="$HERE/sqlite-pushdown.patch"
mkdir -p "$WORK"

mode="patched"
case "${1:-}" in
--stock) mode="stock"; shift ;;
--test) mode="test"; shift ;;
esac

if [ "$mode" != "test" ]; then
  OUT="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
fi

cd "$HERE"
if [ "$mode" = "stock" ]; then
  exec go build -o "$OUT" .
fi

# The patched source, rebuilt whenever the patch changes.
SRC="$WORK/ferretdb-$VERSION-patched"
PATCH_HASH="$(sha256sum "$PATCH" | cut -c1-16)"
if [ "$(cat "$SRC/.patch-hash" 2>/dev/null)" != "$PATCH_HASH" ]; then
  go mod download "$MODULE@$VERSION"
  CACHED="$(go list -m -f '{{.Dir}}' "$MODULE@$VERSION")"
  rm -rf "$SRC"
  cp -r "$CACHED" "$SRC"
  chmod -R u+w "$SRC"
  patch -s -p1 -d "$SRC" <"$PATCH"
  echo "$PATCH_HASH" >"$SRC/.patch-hash"
fi

cp go.mod "$WORK/go.mod"
cp go.sum "$WORK/go.sum"
go mod edit -modfile="$WORK/go.mod" -replace="$MODULE=$SRC"

if [ "$mode" = "test" ]; then
  exec go test -modfile="$WORK/go.mod" "$@" .
fi
exec go build -modfile="$WORK/go.mod" -o "$OUT" .
