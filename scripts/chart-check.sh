#!/usr/bin/env bash
# Lints, renders and validates the Helm chart charts/travel-expense, offline.
#
#  1. installs what it needs, project-local and idempotently:
#       helm -> .tools/bin/helm                    (scripts/ensure-helm.sh: go install; Go toolchain required)
#       kubeconform, kube-score -> .tools/bin      (go install, pinned)
#       a Python venv .tools/chart-venv (pip, PyPI) with
#         kubernetes-validate                   the Kubernetes JSON schemas, bundled (no download), written
#                                               once for kubeconform into .tools/kube-schemas
#         cloudcoil-models-prometheus-operator  models generated from the Prometheus Operator CRDs
#         promql-parser                         the PromQL parser (Rust, prebuilt wheel)
#  2. helm lint --strict with each ci/*-values.yaml
#  3. helm template: the full CI values, the same with monitoring off, an existing-Secret setup, only
#     the required values (the chart's defaults), and the full values under the longest release name
#  4. validates every rendered object with kubeconform against the Kubernetes schemas (strict: unknown
#     fields fail) of every minor version from the oldest the chart supports to the newest the schemas
#     know, and scores it with kube-score (its findings fail, but the ones docs/deployment.md justifies:
#     decision 0222); the ServiceMonitors and PrometheusRule against the Prometheus Operator CRD models (strict too);
#     parses every PromQL expression (alerts and dashboard panels); then checks the chart's own
#     promises (probes and metrics on the ops port, hardening, wiring between objects, JSON payloads,
#     NetworkPolicy shape, each pod reading only its own signing key, each service trusting exactly the
#     gateway and its callers), and that the chart's services (values.yaml ports and ops ports,
#     values.schema.json lists) are the registry's (contracts/src/services.ts, through scripts/services.ts)
#  5. the alerts: the rendered PrometheusRule through `promtool check rules` and `promtool test rules`
#     (tests/alerts/rules.test.yaml: a firing and a quiet case per alert), and each alert's runbook_url
#     pointing at a section of docs/operations.md that exists
#  6. checks that bad input fails: no secrets at all, a value the schema rejects, a malformed key, a
#     missing private or public signing key; kubeconform on an unknown field and on a field the oldest
#     Kubernetes lacks; kube-score on each of its fixed findings undone
#
# Prints one line per step; exits non-zero on the first failure. Needs no cluster and no internet
# beyond the package registries (only on the first run, to install the tools).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
CHART="$ROOT/charts/travel-expense"
# kubernetes-validate 1.37.0 bundles the strict JSON schemas of Kubernetes 1.25 .. 1.37 (kubeconform reads them).
PY_REQUIREMENTS=(kubernetes-validate==1.37.0 cloudcoil-models-prometheus-operator==0.80.1.0 cloudcoil==0.6.0 promql-parser==0.11.0)
KUBE_NEWEST="1.37.0"      # newest Kubernetes the bundled schemas know
# The schema validator and the best-practice checker (decision 0222), pinned, built with `go install`.
KUBECONFORM=(kubeconform github.com/yannh/kubeconform/cmd/kubeconform v0.8.0)
KUBE_SCORE=(kube-score github.com/zegl/kube-score/cmd/kube-score v1.20.0)
# kube-score's findings kept, each justified in docs/deployment.md ("Chart validation"); everything else fails.
KUBE_SCORE_KEPT=(container-cpu-limit container-image-pull-policy deployment-has-host-podantiaffinity)
# Optional kube-score checks the chart passes and keeps passing.
KUBE_SCORE_OPTIONAL=(container-seccomp-profile container-ports-check)
RELEASE="te"
NAMESPACE="travel"

say() { printf '[chart-check] %s\n' "$*"; }
fail() { printf '[chart-check] FAIL: %s\n' "$*" >&2; exit 1; }
START=$(date +%s)

# Oldest supported Kubernetes, from Chart.yaml's kubeVersion (">=1.27.0-0" -> 1.27.0).
KUBE_OLDEST="$(sed -n 's/^kubeVersion: *"*>=\([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p' "$CHART/Chart.yaml")"
[ -n "$KUBE_OLDEST" ] || fail "could not read kubeVersion (>=X.Y.Z) from Chart.yaml"

# --- tools ---------------------------------------------------------------------------------------------
mkdir -p "$TOOLS/bin"
HELM="$(bash "$ROOT/scripts/ensure-helm.sh")" || fail "helm is not available"

VENV="$TOOLS/chart-venv"
PY="$VENV/bin/python"
# shellcheck source=lib/installs.sh
source "$ROOT/scripts/lib/installs.sh"
# A venv whose imports fail (a half-written install) is rebuilt.
"$PY" -c 'import kubernetes_validate, promql_parser, cloudcoil.models.prometheus_operator' 2>/dev/null || rm -f "$VENV/.stamp"
pinned_venv "$VENV" -- "${PY_REQUIREMENTS[@]}"
[ "$PINNED_VENV_BUILT" = 1 ] || say "validators present in .tools/chart-venv (${PY_REQUIREMENTS[*]})"
pinned_go_tool "${KUBECONFORM[@]}"
pinned_go_tool "${KUBE_SCORE[@]}"

# Every minor version from the oldest supported to the newest the schemas know: 1.27.0 1.28.0 ... 1.37.0.
KUBE_VERSIONS=()
for ((minor = $(cut -d. -f2 <<<"$KUBE_OLDEST"); minor <= $(cut -d. -f2 <<<"$KUBE_NEWEST"); minor++)); do
  KUBE_VERSIONS+=("1.$minor.0")
done
# kubeconform's schema folders, written once from the venv's bundled schemas (scripts/chart-kube-schemas.py).
SCHEMAS="$TOOLS/kube-schemas"
SCHEMAS_STAMP="${PY_REQUIREMENTS[0]} standalone ${KUBE_VERSIONS[*]}"
if [ "$(cat "$SCHEMAS/.stamp" 2>/dev/null)" != "$SCHEMAS_STAMP" ]; then
  say "writing kubeconform's schemas for Kubernetes ${KUBE_VERSIONS[*]} into .tools/kube-schemas"
  rm -rf "$SCHEMAS"
  write_schemas() {
    "$PY" "$ROOT/scripts/chart-kube-schemas.py" "$SCHEMAS" "${KUBE_VERSIONS[@]}" || fail "could not write the schemas"
    echo "$SCHEMAS_STAMP" >"$SCHEMAS/.stamp"
  }
  cached_file "$SCHEMAS" "kube-schemas-$(echo "$SCHEMAS_STAMP" | sha256sum | cut -c1-16)" write_schemas
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
CI_VALUES="$CHART/ci/test-values.yaml"
EXISTING_VALUES="$CHART/ci/existing-secret-values.yaml"
REQUIRED_VALUES="$CHART/ci/required-only-values.yaml"
# Every values file in ci/ is linted, rendered, validated and scored below: a new one must be added here.
[ "$(cd "$CHART/ci" && ls | sort | tr '\n' ' ')" = "existing-secret-values.yaml required-only-values.yaml test-values.yaml " ] \
  || fail "charts/travel-expense/ci holds a values file scripts/chart-check.sh does not render: add it"

# Helm built by `go install` defaults to Kubernetes v1.20 for capabilities, so always say which.
KV_FLAG=(--kube-version "$KUBE_OLDEST")

# --- lint ----------------------------------------------------------------------------------------------
for values in "$CI_VALUES" "$EXISTING_VALUES" "$REQUIRED_VALUES"; do
  say "helm lint --strict -f ci/$(basename "$values")"
  if ! "$HELM" lint "$CHART" --strict "${KV_FLAG[@]}" --namespace "$NAMESPACE" -f "$values" >"$WORK/lint.log" 2>&1; then
    cat "$WORK/lint.log" >&2
    fail "helm lint failed with ci/$(basename "$values")"
  fi
  grep -E '^\[(WARNING|ERROR)\]' "$WORK/lint.log" >&2 && fail "helm lint reported warnings" || true
done

# --- render --------------------------------------------------------------------------------------------
render() { # name, then helm template arguments; RELEASE_NAME overrides the release name
  local name="$1"; shift
  say "helm template ($name)"
  if ! "$HELM" template "${RELEASE_NAME:-$RELEASE}" "$CHART" --namespace "$NAMESPACE" "${KV_FLAG[@]}" "$@" >"$WORK/$name.yaml" 2>"$WORK/$name.err"; then
    cat "$WORK/$name.err" >&2
    fail "helm template ($name) failed"
  fi
}
render full -f "$CI_VALUES"
render no-monitoring -f "$CI_VALUES" \
  --set monitoring.serviceMonitor.enabled=false \
  --set monitoring.prometheusRule.enabled=false \
  --set monitoring.dashboards.enabled=false
render existing-secret -f "$EXISTING_VALUES"
render required-only -f "$REQUIRED_VALUES"
# The longest release name Helm accepts (53): every object name must still fit in 63 characters.
RELEASE_NAME="a-long-release-name-for-the-travel-expense-production" render long-release-name -f "$CI_VALUES"

# --- bad input must fail -------------------------------------------------------------------------------
expect_failure() { # name, expected message (grep -E), then helm template arguments
  local name="$1" pattern="$2"; shift 2
  say "helm template must fail: $name"
  if "$HELM" template "$RELEASE" "$CHART" --namespace "$NAMESPACE" "${KV_FLAG[@]}" "$@" >/dev/null 2>"$WORK/neg.err"; then
    fail "helm template succeeded but should fail: $name"
  fi
  grep -Eq "$pattern" "$WORK/neg.err" || { cat "$WORK/neg.err" >&2; fail "unexpected error for: $name"; }
}
expect_failure "no secrets and no existingSecret" "secrets.mongoUrl is required"
expect_failure "schema: misspelt service key" "additional properties 'replicas' not allowed" \
  -f "$CI_VALUES" --set services.entries.replicas=3
expect_failure "schema: webhook key not 32 bytes base64" "webhookSecretEncryptionKey" \
  -f "$CI_VALUES" --set secrets.webhookSecretEncryptionKey=c2hvcnQ=
expect_failure "schema: bad retry schedule" "retrySchedule" \
  -f "$CI_VALUES" --set-string webhookDispatcher.retrySchedule=soon
expect_failure "schema: signing key not 32 bytes base64" "signingKeys" \
  -f "$CI_VALUES" --set secrets.signingKeys.gateway=c2hvcnQ=
# Values files without one key (the first `payouts:` of the CI values is its private key).
awk '/^    payouts:/ && !dropped { dropped = 1; next } 1' "$CI_VALUES" >"$WORK/no-payouts-key.yaml"
expect_failure "a process without its private key" "secrets.signingKeys.payouts is required" \
  -f "$WORK/no-payouts-key.yaml"
grep -v '^    entries:' "$EXISTING_VALUES" >"$WORK/no-entries-public-key.yaml"
expect_failure "a caller without its public key" "internalKeys.publicKeys.entries is required" \
  -f "$WORK/no-entries-public-key.yaml"

# --- Kubernetes schemas: kubeconform, strict, every supported minor version (decision 0222) --------------
# The Prometheus Operator objects are no Kubernetes kinds: their CRD models check them below.
RENDERS=(full no-monitoring existing-secret required-only long-release-name)
RENDERED=()
for name in "${RENDERS[@]}"; do RENDERED+=("$WORK/$name.yaml"); done
kubeconform_run() { # Kubernetes version, then manifest files
  "$TOOLS/bin/kubeconform" -strict -summary -kubernetes-version "$1" -skip ServiceMonitor,PrometheusRule \
    -schema-location "$SCHEMAS/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
    "${@:2}"
}
say "kubeconform -strict: ${#RENDERS[@]} renders against the schemas of Kubernetes ${KUBE_VERSIONS[*]}"
pids=()
for v in "${KUBE_VERSIONS[@]}"; do
  kubeconform_run "$v" "${RENDERED[@]}" >"$WORK/kubeconform-$v.log" 2>&1 &
  pids+=($!)
done
for i in "${!KUBE_VERSIONS[@]}"; do
  v="${KUBE_VERSIONS[$i]}"
  if ! wait "${pids[$i]}"; then
    cat "$WORK/kubeconform-$v.log" >&2
    fail "kubeconform: the chart is not valid for Kubernetes $v"
  fi
done
say "  $(tail -1 "$WORK/kubeconform-$KUBE_OLDEST.log") (each version)"
say "kubeconform must fail: an unknown field (strict)"
sed '0,/enableServiceLinks: false/s//enableServiceLink: false/' "$WORK/full.yaml" >"$WORK/unknown-field.yaml"
if kubeconform_run "$KUBE_NEWEST" "$WORK/unknown-field.yaml" >"$WORK/neg.err" 2>&1; then
  fail "kubeconform accepted a Deployment with an unknown field"
fi
grep -q "additional properties 'enableServiceLink' not allowed" "$WORK/neg.err" || { cat "$WORK/neg.err" >&2; fail "unexpected error for: unknown field"; }
say "kubeconform must fail: a field Kubernetes $KUBE_OLDEST does not know (each version its own schemas)"
# Service.spec.trafficDistribution came with Kubernetes 1.30.
awk '/^kind: Service$/ && !done { print; service = 1; next } service && /^spec:$/ { print; print "  trafficDistribution: PreferClose"; service = 0; done = 1; next } 1' \
  "$WORK/full.yaml" >"$WORK/newer-field.yaml"
kubeconform_run "$KUBE_NEWEST" "$WORK/newer-field.yaml" >"$WORK/neg.err" 2>&1 || { cat "$WORK/neg.err" >&2; fail "kubeconform rejected trafficDistribution on Kubernetes $KUBE_NEWEST"; }
if kubeconform_run "$KUBE_OLDEST" "$WORK/newer-field.yaml" >"$WORK/neg.err" 2>&1; then
  fail "kubeconform accepted Service.spec.trafficDistribution on Kubernetes $KUBE_OLDEST"
fi
grep -q "additional properties 'trafficDistribution' not allowed" "$WORK/neg.err" || { cat "$WORK/neg.err" >&2; fail "unexpected error for: newer field"; }

# --- best practice: kube-score (decision 0222) -------------------------------------------------------------
# Every finding fails but those kept in KUBE_SCORE_KEPT, each a row of docs/deployment.md's table; the
# existing-secret values turn the chart's NetworkPolicies off (policies managed elsewhere), so that render
# alone keeps pod-networkpolicy.
for id in "${KUBE_SCORE_KEPT[@]}" pod-networkpolicy; do
  grep -Eq "^\| \`$id\` +\|" "$ROOT/docs/deployment.md" \
    || fail "kube-score finding $id is kept without a row in docs/deployment.md's table (\"Chart validation\")"
done
kube_score_run() { # manifest file, then extra kube-score flags
  local flags=(--output-format ci --kubernetes-version "v${KUBE_OLDEST%.*}" --exit-one-on-warning)
  local id
  for id in "${KUBE_SCORE_KEPT[@]}"; do
    # The CPU limit has a flag of its own, not an --ignore-test id.
    if [ "$id" = container-cpu-limit ]; then flags+=(--ignore-container-cpu-limit); else flags+=(--ignore-test "$id"); fi
  done
  for id in "${KUBE_SCORE_OPTIONAL[@]}"; do flags+=(--enable-optional-test "$id"); done
  "$TOOLS/bin/kube-score" score "${flags[@]}" "${@:2}" "$1"
}
for name in "${RENDERS[@]}"; do
  say "kube-score ($name)"
  extra=()
  [ "$name" = existing-secret ] && extra=(--ignore-test pod-networkpolicy)
  if ! kube_score_run "$WORK/$name.yaml" ${extra[@]+"${extra[@]}"} >"$WORK/kube-score.log" 2>&1; then
    grep -Ev '^\[(OK|SKIPPED)\]' "$WORK/kube-score.log" >&2
    fail "kube-score found problems in the $name manifests (fix them, or justify them in docs/deployment.md)"
  fi
done
kube_score_must_fail() { # name, expected finding (grep -F), then helm template arguments
  local name="$1" finding="$2"
  shift 2
  say "kube-score must fail: $name"
  "$HELM" template "$RELEASE" "$CHART" --namespace "$NAMESPACE" "${KV_FLAG[@]}" -f "$CI_VALUES" "$@" >"$WORK/neg.yaml" \
    || fail "helm template failed for: $name"
  if kube_score_run "$WORK/neg.yaml" >"$WORK/neg.err" 2>&1; then fail "kube-score accepted: $name"; fi
  grep -qF "$finding" "$WORK/neg.err" || { cat "$WORK/neg.err" >&2; fail "unexpected findings for: $name"; }
}
kube_score_must_fail "no ephemeral-storage limit" "Ephemeral Storage limit is not set" \
  --set defaults.resources.limits.ephemeral-storage=null
kube_score_must_fail "the node's first user id" "The container is running with a low user ID" \
  --set defaults.podSecurityContext.runAsUser=1000
kube_score_must_fail "one replica" "Deployment few replicas" \
  --set services.payouts.replicaCount=1

# --- validate ------------------------------------------------------------------------------------------
cat >"$WORK/validate.py" <<'PY'
"""Validates rendered manifests: CRD shape and the chart's promises (the Kubernetes schemas: kubeconform, before this)."""
import inspect
import json
import os
import re
import sys

import promql_parser
import pydantic
import yaml
from cloudcoil.models.prometheus_operator import v1 as monitoring_v1

# The CRD models ignore unknown fields by default; forbid them, like the strict Kubernetes schemas.
_models = [c for c in vars(monitoring_v1).values()
           if inspect.isclass(c) and issubclass(c, pydantic.BaseModel) and c.__module__ == monitoring_v1.__name__]
for _c in _models:
    _c.model_config["extra"] = "forbid"
for _ in range(2):  # twice, so parents pick up their children's rebuilt validators
    for _c in _models:
        _c.model_rebuild(force=True)
CRD_MODELS = {"ServiceMonitor": monitoring_v1.ServiceMonitor, "PrometheusRule": monitoring_v1.PrometheusRule}
# Grafana variables, replaced by sample values before a panel query is parsed.
GRAFANA_VARS = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h", "$namespace": "travel", "$service": ".*"}


def promql_error(expr):
    try:
        promql_parser.parse(expr)
        return None
    except Exception as e:  # the parser raises ValueError with the position
        return str(e)

# The registry of services (contracts/src/services.ts, printed by scripts/services.ts): name -> port.
with open(os.environ["TE_SERVICES_JSON"]) as _f:
    REGISTRY = json.load(_f)
SERVICES = {s["name"]: s["port"] for s in REGISTRY}
OPS_PORTS = {s["name"]: s["opsPort"] for s in REGISTRY}


def registry_errors(chart_dir):
    """The chart's own lists of services (values.yaml, values.schema.json) against the registry."""
    errors = []
    with open(f"{chart_dir}/values.yaml") as f:
        values = yaml.safe_load(f)
    with open(f"{chart_dir}/values.schema.json") as f:
        schema = json.load(f)
    names = sorted(SERVICES)
    declared = values.get("services") or {}
    if sorted(declared) != names:
        errors.append(f"values.yaml services {sorted(declared)} differ from the registry {names}")
    for name, port in SERVICES.items():
        got = (declared.get(name) or {}).get("port")
        if got != port:
            errors.append(f"values.yaml services.{name}.port is {got}, the registry says {port}")
        got_ops = (declared.get(name) or {}).get("opsPort")
        if got_ops != OPS_PORTS[name]:
            errors.append(f"values.yaml services.{name}.opsPort is {got_ops}, the registry says {OPS_PORTS[name]}")
    props = schema["properties"]["services"]
    if sorted(props.get("properties", {})) != names or sorted(props.get("required", [])) != names:
        errors.append(f"values.schema.json services.properties/required differ from the registry {names}")
    for path, node in (("defaults", schema["definitions"]["defaults"]), ("service", schema["definitions"]["service"])):
        enum = sorted(node["properties"]["allowedCallers"]["items"]["enum"])
        if enum != names:
            errors.append(f"values.schema.json definitions.{path}.allowedCallers enum {enum} differs from the registry {names}")
    for definition in ("keysByProcess", "publicKeysByProcess"):
        enum = sorted(schema["definitions"][definition]["propertyNames"]["enum"])
        if enum != names:
            errors.append(f"values.schema.json definitions.{definition} names {enum} differ from the registry {names}")
    return errors
CRDS = {("monitoring.coreos.com/v1", "ServiceMonitor"), ("monitoring.coreos.com/v1", "PrometheusRule")}
DNS1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DURATION = re.compile(r"^([0-9]+(ms|s|m|h|d|w|y))+$")
PRIVATE = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "127.0.0.0/8"]


def main():
    """argv: chart directory, then one NAME:FILE:MONITORING(yes/no):EXISTING_SECRET(or -) per render"""
    chart_dir = sys.argv.pop(1)
    failed = 0
    print("[chart-check] the chart's services (values.yaml, values.schema.json) against the registry of services", flush=True)
    for e in registry_errors(chart_dir):
        print(f"[chart-check]   ERROR {e}", file=sys.stderr)
        failed += 1
    if sys.argv[1] == "--registry-only":
        sys.exit(1 if failed else 0)
    for spec in sys.argv[1:]:
        name, path, monitoring, existing_secret = spec.split(":")
        print(f"[chart-check] validating {name} manifests (Prometheus Operator CRDs, PromQL, chart rules)", flush=True)
        errors = check(path, monitoring == "yes", existing_secret)
        for e in errors:
            print(f"[chart-check]   ERROR {e}", file=sys.stderr)
        if errors:
            print(f"[chart-check]   {len(errors)} problem(s) in the {name} manifests", file=sys.stderr)
            failed += 1
    sys.exit(1 if failed else 0)


def check(path, expect_monitoring, existing_secret):
    errors = []
    err = errors.append
    with open(path) as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    if not docs:
        return [f"{path}: rendered nothing"]

    # every document: a mapping with apiVersion, kind, metadata.name; unique; a DNS-1123 name
    seen = set()
    for i, d in enumerate(docs):
        where = f"document {i + 1}"
        if not isinstance(d, dict) or not d.get("apiVersion") or not d.get("kind") or not (d.get("metadata") or {}).get("name"):
            err(f"{where}: needs apiVersion, kind and metadata.name")
            continue
        name = d["metadata"]["name"]
        key = (d["kind"], d["metadata"].get("namespace"), name)
        if key in seen:
            err(f"{d['kind']}/{name}: rendered twice")
        seen.add(key)
        if not DNS1123.match(name) or len(name) > 63:
            err(f"{d['kind']}/{name}: not a DNS-1123 label of at most 63 characters")
    if errors:
        return errors
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d["kind"], []).append(d)

    # (The Kubernetes schemas of every supported version: kubeconform, before this script.)
    # Prometheus Operator objects: the CRD models (strict), then what the chart promises
    crd_checked = 0
    promql_checked = 0
    for d in docs:
        if (d["apiVersion"], d["kind"]) not in CRDS:
            continue
        try:
            CRD_MODELS[d["kind"]].model_validate(d)
        except pydantic.ValidationError as e:
            for x in e.errors():
                err(f"{d['kind']}/{d['metadata']['name']} (CRD): {'.'.join(str(p) for p in x['loc'])}: {x['msg']}")
        crd_checked += 1
    for d in by_kind.get("ServiceMonitor", []):
        ref = f"ServiceMonitor/{d['metadata']['name']}"
        spec = d.get("spec") or {}
        if not (spec.get("selector") or {}).get("matchLabels"):
            err(f"{ref}: spec.selector.matchLabels is empty")
        eps = spec.get("endpoints") or []
        if not eps:
            err(f"{ref}: no endpoints")
        for ep in eps:
            if ep.get("port") != "ops" or ep.get("path") != "/metrics":
                err(f"{ref}: endpoint must scrape port ops, path /metrics")
            for k in ("interval", "scrapeTimeout"):
                if k in ep and not DURATION.match(str(ep[k])):
                    err(f"{ref}: {k} {ep[k]!r} is not a duration")
    alerts = set()
    for d in by_kind.get("PrometheusRule", []):
        ref = f"PrometheusRule/{d['metadata']['name']}"
        groups = (d.get("spec") or {}).get("groups") or []
        if not groups:
            err(f"{ref}: no groups")
        names = [g.get("name") for g in groups]
        if len(set(names)) != len(names) or not all(names):
            err(f"{ref}: group names must be present and unique")
        for g in groups:
            for r in g.get("rules") or []:
                rid = f"{ref} {g.get('name')}/{r.get('alert') or r.get('record')}"
                if bool(r.get("alert")) == bool(r.get("record")):
                    err(f"{rid}: a rule has exactly one of alert, record")
                if not isinstance(r.get("expr"), str) or not r["expr"].strip():
                    err(f"{rid}: expr must be a non-empty string")
                else:
                    promql_checked += 1
                    problem = promql_error(r["expr"])
                    if problem:
                        err(f"{rid}: PromQL: {problem}")
                if "for" in r and not DURATION.match(str(r["for"])):
                    err(f"{rid}: for {r['for']!r} is not a duration")
                for k in ("labels", "annotations"):
                    if not all(isinstance(v, str) for v in (r.get(k) or {}).values()):
                        err(f"{rid}: {k} values must be strings")
                if r.get("alert"):
                    alerts.add(r["alert"])
                    if (r.get("labels") or {}).get("severity") not in ("critical", "warning", "info"):
                        err(f"{rid}: needs a severity label")
                    if not (r.get("annotations") or {}).get("summary"):
                        err(f"{rid}: needs a summary annotation")

    monitoring_kinds = [d for d in docs if (d["apiVersion"], d["kind"]) in CRDS]
    dashboards = [d for d in by_kind.get("ConfigMap", []) if (d["metadata"].get("labels") or {}).get("grafana_dashboard") == "1"]
    if expect_monitoring:
        want = {"TravelExpenseServiceDown", "TravelExpenseHighErrorRate", "TravelExpenseOutboxLagHigh",
                "TravelExpenseWebhookDeliveriesExhausted", "TravelExpenseWebhookSubscriptionsDisabled",
                "TravelExpenseMessagesParked"}
        if not want <= alerts:
            err(f"PrometheusRule: missing alerts {sorted(want - alerts)}")
        if len(by_kind.get("ServiceMonitor", [])) != len(SERVICES):
            err("expected one ServiceMonitor per service")
        if not dashboards:
            err("expected a Grafana dashboards ConfigMap (label grafana_dashboard: \"1\")")
    elif monitoring_kinds or dashboards:
        err("monitoring is disabled but ServiceMonitor/PrometheusRule/dashboards were rendered")

    # JSON payloads in ConfigMaps
    for d in by_kind.get("ConfigMap", []):
        for k, v in (d.get("data") or {}).items():
            if not k.endswith(".json"):
                continue
            ref = f"ConfigMap/{d['metadata']['name']} {k}"
            try:
                doc = json.loads(v)
            except ValueError as e:
                err(f"{ref}: invalid JSON: {e}")
                continue
            if d in dashboards:
                exprs = [(p.get("title"), t.get("expr")) for p in doc.get("panels", []) for t in p.get("targets", [])]
                if not doc.get("uid") or not doc.get("title") or len(exprs) < 10 or not all(e for _, e in exprs):
                    err(f"{ref}: dashboard needs uid, title and panels with queries")
                for title, expr in exprs:
                    for var, sample in GRAFANA_VARS.items():
                        expr = (expr or "").replace(var, sample)
                    promql_checked += 1
                    problem = promql_error(expr)
                    if problem:
                        err(f"{ref} panel {title!r}: PromQL: {problem}")
                ids = [p.get("id") for p in doc.get("panels", [])]
                if len(set(ids)) != len(ids):
                    err(f"{ref}: panel ids must be unique")
                text = json.dumps(doc)
                for metric in ("http_requests_total", "http_request_duration_seconds_bucket", "outbox_oldest_pending_seconds",
                               "webhook_delivery_attempts_total", "webhook_delivery_latency_seconds_bucket",
                               "amqp_parked_messages"):
                    if metric not in text:
                        err(f"{ref}: dashboard does not chart {metric}")
            if k == "definitions.json":
                ex = [e for e in doc.get("exchanges", []) if e.get("name") == "domain.events"]
                if not ex or ex[0].get("type") != "topic" or ex[0].get("durable") is not True:
                    err(f"{ref}: needs the durable topic exchange domain.events")

    # the chart's promises
    deployments = {d["metadata"]["labels"].get("app.kubernetes.io/component"): d for d in by_kind.get("Deployment", [])}
    if set(deployments) != set(SERVICES):
        err(f"Deployments for {sorted(deployments)}, expected {sorted(SERVICES)}")
    secrets = {d["metadata"]["name"] for d in by_kind.get("Secret", [])}
    if existing_secret and existing_secret != "-":
        if by_kind.get("Secret"):
            err("existingSecret is set but the chart rendered a Secret")
        secrets.add(existing_secret)
    accounts = {d["metadata"]["name"] for d in by_kind.get("ServiceAccount", [])}
    services = {d["metadata"]["name"]: d for d in by_kind.get("Service", [])}

    def matches(selector, labels):
        return bool(selector) and all(labels.get(k) == v for k, v in selector.items())

    for comp, d in deployments.items():
        ref = f"Deployment/{d['metadata']['name']}"
        pod = d["spec"]["template"]["spec"]
        labels = d["spec"]["template"]["metadata"]["labels"]
        if not matches(d["spec"]["selector"]["matchLabels"], labels):
            err(f"{ref}: selector does not match its pod labels")
        psc = pod.get("securityContext") or {}
        if psc.get("runAsNonRoot") is not True:
            err(f"{ref}: pod securityContext.runAsNonRoot must be true")
        if pod.get("serviceAccountName") not in accounts:
            err(f"{ref}: ServiceAccount {pod.get('serviceAccountName')} is not rendered")
        if not pod.get("topologySpreadConstraints"):
            err(f"{ref}: no topologySpreadConstraints")
        c = pod["containers"][0]
        if c.get("command") != ["node", "dist/main.js"]:
            err(f"{ref}: command must be node dist/main.js")
        if not c["image"].split("@")[0].rsplit(":", 1)[0].endswith(f"/travel-expense-{comp}"):
            err(f"{ref}: image {c['image']} does not follow <registry>/travel-expense-{comp}:<tag>")
        csc = c.get("securityContext") or {}
        if csc.get("readOnlyRootFilesystem") is not True or csc.get("allowPrivilegeEscalation") is not False \
                or (csc.get("capabilities") or {}).get("drop") != ["ALL"] or csc.get("runAsNonRoot") is not True:
            err(f"{ref}: container must be non-root, read-only root, no privilege escalation, drop ALL")
        port = [p for p in c.get("ports", []) if p.get("name") == "http"]
        if not port or port[0]["containerPort"] != SERVICES[comp]:
            err(f"{ref}: http port must be {SERVICES[comp]}")
        ops = [p for p in c.get("ports", []) if p.get("name") == "ops"]
        if not ops or ops[0]["containerPort"] != OPS_PORTS[comp]:
            err(f"{ref}: ops port must be {OPS_PORTS[comp]}")
        # /healthz, /readyz and /metrics live on the ops port only: never on the API port (decision 0097).
        for probe, probe_path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"), ("startupProbe", "/healthz")):
            get = (c.get(probe) or {}).get("httpGet", {})
            if get.get("path") != probe_path or get.get("port") != "ops":
                err(f"{ref}: {probe} must GET {probe_path} on port ops")
        if not (c.get("resources") or {}).get("requests"):
            err(f"{ref}: no resource requests")
        env = {e["name"]: e for e in c.get("env", [])}
        need = ["PORT", "SERVICE_NAME", "MONGO_URL", "AMQP_URL", "INTERNAL_SIGNING_KEY", "LOG_LEVEL", "OTEL_SERVICE_NAME"]
        if comp == "gateway":
            need += [s.upper().replace("-", "_") + "_URL" for s in SERVICES if s != "gateway"]
        else:
            need += ["INTERNAL_TRUSTED_KEYS"]
        if comp == "webhook-dispatcher":
            need += ["WEBHOOK_RETRY_SCHEDULE", "WEBHOOK_ALLOWED_PRIVATE_CIDRS", "WEBHOOK_TIMEOUT_MS", "WEBHOOK_SECRET_ENCRYPTION_KEY"]
        for n in need:
            if n not in env:
                err(f"{ref}: env {n} missing")
        if env.get("PORT", {}).get("value") != str(SERVICES[comp]) or env.get("SERVICE_NAME", {}).get("value") != comp:
            err(f"{ref}: PORT/SERVICE_NAME wrong")
        if env.get("OPS_PORT", {}).get("value") != str(OPS_PORTS[comp]):
            err(f"{ref}: OPS_PORT must be {OPS_PORTS[comp]}")
        if env.get("HOST", {}).get("value") != "0.0.0.0":
            err(f"{ref}: HOST must be 0.0.0.0 (services bind loopback by default; probes would fail)")
        for n in ("MONGO_URL", "AMQP_URL", "INTERNAL_SIGNING_KEY", "WEBHOOK_SECRET_ENCRYPTION_KEY"):
            if n in env:
                ref_ = (env[n].get("valueFrom") or {}).get("secretKeyRef") or {}
                if ref_.get("name") not in secrets or "value" in env[n]:
                    err(f"{ref}: {n} must come from a rendered or existing Secret")
        for n, e in env.items():
            if n.endswith("_URL") and n not in ("MONGO_URL", "AMQP_URL"):
                target = n[:-4].lower().replace("_", "-")
                if target not in SERVICES or f":{SERVICES[target]}" not in e.get("value", ""):
                    err(f"{ref}: {n}={e.get('value')} does not point at {target}")
        if not any(matches(s["spec"]["selector"], labels) for s in services.values()):
            err(f"{ref}: no Service selects its pods")
        # Internal trust (docs/decisions/0102): a pod reads only its own private key, and a service trusts
        # the gateway's key and those of the services that call it (those given its URL), nobody else's.
        own_key = "INTERNAL_SIGNING_KEY_" + comp.upper().replace("-", "_")
        if ((env.get("INTERNAL_SIGNING_KEY", {}).get("valueFrom") or {}).get("secretKeyRef") or {}).get("key") != own_key:
            err(f"{ref}: INTERNAL_SIGNING_KEY must be the Secret's {own_key}")
        if comp != "gateway":
            callers = {"gateway"} | {
                other for other, d2 in deployments.items() if other not in ("gateway", comp)
                and any(e["name"] == comp.upper().replace("-", "_") + "_URL" for e in d2["spec"]["template"]["spec"]["containers"][0].get("env", []))
            }
            trusted = [entry.split(":", 1) for entry in env.get("INTERNAL_TRUSTED_KEYS", {}).get("value", "").split(",") if entry]
            if sorted({i for i, _ in trusted}) != sorted(callers):
                err(f"{ref}: INTERNAL_TRUSTED_KEYS lists {sorted({i for i, _ in trusted})}, its callers are {sorted(callers)}")
            if any(not re.fullmatch(r"[A-Za-z0-9+/]{43}=", k) for _, k in trusted):
                err(f"{ref}: INTERNAL_TRUSTED_KEYS holds a key that is not 32 bytes in base64")

    for kind in ("HorizontalPodAutoscaler",):
        for d in by_kind.get(kind, []):
            t = d["spec"]["scaleTargetRef"]["name"]
            if t not in {x["metadata"]["name"] for x in deployments.values()}:
                err(f"{kind}/{d['metadata']['name']}: target {t} is not rendered")
            dep = next(x for x in deployments.values() if x["metadata"]["name"] == t) if t else None
            if dep is not None and "replicas" in dep["spec"]:
                err(f"Deployment/{t}: sets replicas although an HPA scales it")
    pod_labels = [d["spec"]["template"]["metadata"]["labels"] for d in deployments.values()]
    for d in by_kind.get("PodDisruptionBudget", []):
        if not any(matches(d["spec"]["selector"]["matchLabels"], l) for l in pod_labels):
            err(f"PodDisruptionBudget/{d['metadata']['name']}: selects no Deployment")
    for d in by_kind.get("ServiceMonitor", []):
        if not any(matches(d["spec"]["selector"]["matchLabels"], s["metadata"]["labels"])
                   and any(p.get("name") == "http" for p in s["spec"]["ports"]) for s in services.values()):
            err(f"ServiceMonitor/{d['metadata']['name']}: selects no Service with a port named http")
    for d in by_kind.get("Ingress", []):
        for rule in d["spec"]["rules"]:
            for p in rule["http"]["paths"]:
                svc = p["backend"]["service"]["name"]
                if svc not in services or not svc.endswith("-gateway"):
                    err(f"Ingress/{d['metadata']['name']}: backend {svc} must be the rendered gateway Service")
    for d in by_kind.get("Job", []):
        pod = d["spec"]["template"]["spec"]
        c = pod["containers"][0]
        ann = d["metadata"].get("annotations") or {}
        if c.get("command") != ["node", "dist/migrate.js"] or "pre-install" not in ann.get("helm.sh/hook", "") \
                or "pre-upgrade" not in ann.get("helm.sh/hook", ""):
            err(f"Job/{d['metadata']['name']}: must be a pre-install,pre-upgrade hook running node dist/migrate.js")
        if pod.get("serviceAccountName") not in accounts:
            err(f"Job/{d['metadata']['name']}: ServiceAccount not rendered")
        rendered = {s["metadata"]["name"]: s for s in by_kind.get("Secret", [])}
        for e in c.get("env", []):
            r = (e.get("valueFrom") or {}).get("secretKeyRef")
            if not r:
                continue
            if r["name"] not in secrets:
                err(f"Job/{d['metadata']['name']}: Secret {r['name']} not rendered")
            elif r["name"] in rendered and "pre-install" not in (rendered[r["name"]]["metadata"].get("annotations") or {}).get("helm.sh/hook", ""):
                err(f"Job/{d['metadata']['name']}: a pre-install hook must read a hook Secret (the release's is not there yet)")

    # NetworkPolicy: default deny, per-service rules, dispatcher's internet egress without private ranges
    nps = by_kind.get("NetworkPolicy", [])
    if nps:
        deny = [n for n in nps if not n["spec"].get("ingress") and not n["spec"].get("egress")
                and set(n["spec"].get("policyTypes", [])) == {"Ingress", "Egress"}]
        if not deny or not all(any(matches(x["spec"]["podSelector"]["matchLabels"], l) for x in deny) for l in pod_labels):
            err("NetworkPolicy: no default-deny policy covering every pod")
        for comp, dep in deployments.items():
            labels = dep["spec"]["template"]["metadata"]["labels"]
            mine = [n for n in nps if n["spec"].get("ingress") and matches(n["spec"]["podSelector"].get("matchLabels"), labels)]
            if not mine:
                err(f"NetworkPolicy: nothing admits traffic to {comp}")
                continue
            sources = [f for n in mine for r in n["spec"]["ingress"] for f in (r.get("from") or [{"anywhere": True}])]
            # The ops port (metrics, health) has a rule of its own, never open to anywhere, the gateway or a
            # service of the release: only the monitoring peers (decision 0097). Every rule names its ports.
            for n in mine:
                for r in n["spec"]["ingress"]:
                    ports = {p.get("port") for p in r.get("ports") or [{}]}
                    if None in ports:
                        err(f"NetworkPolicy: {comp} admits every port")
                    if "ops" not in ports:
                        continue
                    if ports != {"ops"}:
                        err(f"NetworkPolicy: {comp} admits the ops port together with another port")
                    peers = r.get("from") or [{"anywhere": True}]
                    if any("anywhere" in x or (x.get("podSelector") or {}).get("matchLabels", {}).get("app.kubernetes.io/component") in SERVICES for x in peers):
                        err(f"NetworkPolicy: {comp} admits the ops port to more than the monitoring peers")
            if comp != "gateway":
                if any("anywhere" in s or "ipBlock" in s for s in sources):
                    err(f"NetworkPolicy: {comp} must not accept traffic from anywhere")
                if not any((s.get("podSelector") or {}).get("matchLabels", {}).get("app.kubernetes.io/component") == "gateway" for s in sources):
                    err(f"NetworkPolicy: {comp} does not accept the gateway")
            egress = [r for n in mine for r in n["spec"].get("egress", [])]
            if not any(any(p.get("port") == 53 and p.get("protocol") == "UDP" for p in r.get("ports", [])) for r in egress):
                err(f"NetworkPolicy: {comp} has no DNS egress")
            if comp == "webhook-dispatcher":
                blocks = [t["ipBlock"] for r in egress for t in r.get("to", []) if "ipBlock" in t and t["ipBlock"]["cidr"] == "0.0.0.0/0"]
                if not blocks or not set(PRIVATE) <= set(blocks[0].get("except", [])):
                    err("NetworkPolicy: webhook-dispatcher internet egress must exclude the private ranges")
            elif any("ipBlock" in t and t["ipBlock"]["cidr"] == "0.0.0.0/0" for r in egress for t in r.get("to", [])):
                err(f"NetworkPolicy: {comp} must not reach the internet")

    if errors:
        return errors
    kinds = ", ".join(f"{len(v)} {k}" for k, v in sorted(by_kind.items()))
    print(f"[chart-check]   {len(docs)} objects ({kinds}); {crd_checked} checked against the Prometheus Operator "
          "CRDs (strict), "
          f"{promql_checked} PromQL expressions parsed")
    return []


if __name__ == "__main__":
    main()
PY

# The registry of services (contracts/src/services.ts): the ports, names and URL variables checked below.
"$ROOT/node_modules/.bin/tsx" "$ROOT/scripts/services.ts" >"$WORK/services.json" \
  || fail "could not read the registry of services (scripts/services.ts; run scripts/bootstrap.sh first)"

# The chart must disagree with a registry that is not its own (a service moved to another port).
say "registry check must fail: a port the chart does not have"
sed 's/"port":8084/"port":8094/' "$WORK/services.json" >"$WORK/services-moved.json"
if TE_SERVICES_JSON="$WORK/services-moved.json" "$PY" "$WORK/validate.py" "$CHART" --registry-only 2>"$WORK/neg.err" >/dev/null; then
  fail "the registry check accepted a registry whose payouts port the chart does not have"
fi
grep -q "services.payouts.port is 8084, the registry says 8094" "$WORK/neg.err" || { cat "$WORK/neg.err" >&2; fail "unexpected error for: registry check"; }
say "registry check must fail: an ops port the chart does not have"
sed 's/"opsPort":9084/"opsPort":9094/' "$WORK/services.json" >"$WORK/services-moved.json"
if TE_SERVICES_JSON="$WORK/services-moved.json" "$PY" "$WORK/validate.py" "$CHART" --registry-only 2>"$WORK/neg.err" >/dev/null; then
  fail "the registry check accepted a registry whose payouts ops port the chart does not have"
fi
grep -q "services.payouts.opsPort is 9084, the registry says 9094" "$WORK/neg.err" || { cat "$WORK/neg.err" >&2; fail "unexpected error for: ops port registry check"; }

# One process for all renders (the validators take a few seconds to load).
TE_SERVICES_JSON="$WORK/services.json" "$PY" "$WORK/validate.py" "$CHART" \
  "full:$WORK/full.yaml:yes:-" \
  "no-monitoring:$WORK/no-monitoring.yaml:no:-" \
  "existing-secret:$WORK/existing-secret.yaml:no:travel-expense-credentials" \
  "required-only:$WORK/required-only.yaml:yes:travel-expense-credentials" \
  "long-release-name:$WORK/long-release-name.yaml:yes:-" \
  || fail "manifest validation failed"

# --- alerts: the rendered PrometheusRule under promtool, and its runbook links -------------------------------
# The rule file is THE chart's, rendered with the CI values (namespace travel); tests/alerts/rules.test.yaml
# holds a firing and a quiet case per alert (decision 0161). promtool comes with Debian's prometheus
# package (scripts/bootstrap.sh).
command -v promtool >/dev/null || fail "promtool is missing: run scripts/bootstrap.sh (Debian package prometheus)"
say "alerts: a firing and a quiet promtool case each, runbook sections in docs/operations.md"
"$PY" "$ROOT/scripts/chart-alerts.py" "$WORK/full.yaml" "$ROOT/tests/alerts/rules.test.yaml" \
  "$ROOT/docs/operations.md" "$WORK/rules.yaml" || fail "alert coverage or runbook links"
say "promtool check rules (the chart's PrometheusRule)"
promtool check rules "$WORK/rules.yaml" >"$WORK/promtool.log" 2>&1 || { cat "$WORK/promtool.log" >&2; fail "promtool check rules"; }
say "promtool test rules (tests/alerts/rules.test.yaml)"
cp "$ROOT/tests/alerts/rules.test.yaml" "$WORK/rules.test.yaml"
promtool test rules "$WORK/rules.test.yaml" >"$WORK/promtool.log" 2>&1 || { cat "$WORK/promtool.log" >&2; fail "promtool test rules"; }

say "OK in $(($(date +%s) - START))s"
