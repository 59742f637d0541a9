#!/usr/bin/env bash
# `npm run chart:server-check`: the chart as a real Kubernetes API server takes it (decision 0223). Not part
# of `npm test` (the first build takes many minutes).
#
#  1. installs, idempotently: etcd (Debian's etcd-server), and kube-apiserver built from the Go module
#     proxy (tools/kube-apiserver: k8s.io/kubernetes with its staging modules at their published
#     versions) into .tools/bin
#  2. starts etcd and the API server on free loopback ports (a static admin token, AlwaysAllow), in a
#     temporary folder; stops both on exit
#  3. for each values file in charts/travel-expense/ci (the Prometheus Operator kinds off: this server has
#     no such CRDs): `helm install --dry-run=server`, then a real `helm install --no-hooks` into a namespace
#     of its own with Pod Security `restricted` enforced and warned, and the hook objects (migrate Jobs,
#     their ServiceAccount and Secret) created through the API with strict field validation: every object
#     passes the server's own validation and admission
#  4. fails on any error or any warning the server sends back (a Pod Security violation, a deprecated
#     API, an unknown field); and checks that a container allowed to escalate privileges draws that warning
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
CHART="$ROOT/charts/travel-expense"
MODULE_DIR="$ROOT/tools/kube-apiserver"
KUBE_VERSION="v1.37.2" # k8s.io/kubernetes in tools/kube-apiserver/go.mod
NAMESPACE="travel"
say() { printf '[chart-server-check] %s\n' "$*"; }
fail() { printf '[chart-server-check] FAIL: %s\n' "$*" >&2; exit 1; }
START=$(date +%s)
# shellcheck source=lib/installs.sh
source "$ROOT/scripts/lib/installs.sh"

# --- tools ---------------------------------------------------------------------------------------------
HELM="$(bash "$ROOT/scripts/ensure-helm.sh")" || fail "helm is not available"
command -v etcd >/dev/null || { say "installing etcd (Debian: etcd-server)"; apt_install etcd-server; }
APISERVER="$TOOLS/bin/kube-apiserver"
built_version() { go version -m "$1" 2>/dev/null | awk '$1 == "mod" && $2 == "k8s.io/kubernetes" { print $3 }'; }
if [ ! -x "$APISERVER" ] || [ "$(built_version "$APISERVER")" != "$KUBE_VERSION" ]; then
  say "building kube-apiserver $KUBE_VERSION from the Go module proxy into .tools/bin (many minutes the first time)"
  # The version the server reports (/version): Helm checks Chart.yaml's kubeVersion against it.
  minor="$(cut -d. -f2 <<<"$KUBE_VERSION")"
  ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1"
  ldflags+=" -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
  mkdir -p "$TOOLS/bin"
  if ! (cd "$MODULE_DIR" && go build -trimpath -ldflags "$ldflags" -o "$APISERVER" k8s.io/kubernetes/cmd/kube-apiserver) \
    >"$TOOLS/kube-apiserver-build.log" 2>&1; then
    tail -30 "$TOOLS/kube-apiserver-build.log" >&2
    fail "building kube-apiserver failed (full log: .tools/kube-apiserver-build.log)"
  fi
fi
say "etcd $(etcd --version | awk '/etcd Version/ { print $3 }'), kube-apiserver $("$APISERVER" --version | awk '{ print $2 }'), helm $(go version -m "$HELM" | awk '$1 == "mod" { print $3 }')"

# --- etcd and the API server ---------------------------------------------------------------------------
WORK="$(mktemp -d)"
PIDS=()
stop() { # pid: SIGTERM, and SIGKILL after 15 s (an API server whose etcd is gone may not finish its shutdown)
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 30); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.5; done
  kill -9 "$1" 2>/dev/null || true
}
cleanup() {
  local i
  # The API server first, then its etcd.
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do stop "${PIDS[$i]}"; done
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ETCD_CLIENT="$(free_port)"
ETCD_PEER="$(free_port)"
API_PORT="$(free_port)"

etcd --data-dir "$WORK/etcd" --name chart-check \
  --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT" --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
  --initial-cluster "chart-check=http://127.0.0.1:$ETCD_PEER" >"$WORK/etcd.log" 2>&1 &
PIDS+=($!)

TOKEN="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
echo "$TOKEN,chart-check,chart-check,system:masters" >"$WORK/tokens.csv"
openssl genrsa -out "$WORK/sa.key" 2048 2>/dev/null
openssl rsa -in "$WORK/sa.key" -pubout -out "$WORK/sa.pub" 2>/dev/null
"$APISERVER" --etcd-servers "http://127.0.0.1:$ETCD_CLIENT" \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$API_PORT" --cert-dir "$WORK/certs" \
  --token-auth-file "$WORK/tokens.csv" --authorization-mode AlwaysAllow \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$WORK/sa.pub" \
  --service-account-signing-key-file "$WORK/sa.key" --service-cluster-ip-range 10.96.0.0/24 \
  --endpoint-reconciler-type none \
  >"$WORK/apiserver.log" 2>&1 &
PIDS+=($!)

api() { # method, path, then curl arguments
  curl -sk -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    "https://127.0.0.1:$API_PORT$2" "${@:3}"
}
say "waiting for the API server on 127.0.0.1:$API_PORT (etcd on $ETCD_CLIENT)"
for _ in $(seq 1 180); do
  [ "$(api GET /readyz -o /dev/null -w '%{http_code}' || true)" = 200 ] && break
  kill -0 "${PIDS[1]}" 2>/dev/null || { tail -30 "$WORK/apiserver.log" >&2; fail "kube-apiserver exited"; }
  sleep 1
done
[ "$(api GET /readyz -o /dev/null -w '%{http_code}' || true)" = 200 ] || { tail -30 "$WORK/apiserver.log" >&2; fail "kube-apiserver not ready in 180 s"; }
say "API server ready after $(($(date +%s) - START)) s: $(api GET /version | python3 -c 'import json, sys; print(json.load(sys.stdin)["gitVersion"])')"

cat >"$WORK/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: check, cluster: {server: "https://127.0.0.1:$API_PORT", insecure-skip-tls-verify: true}}]
users: [{name: check, user: {token: "$TOKEN"}}]
contexts: [{name: check, context: {cluster: check, user: check, namespace: $NAMESPACE}}]
current-context: check
EOF
chmod 600 "$WORK/kubeconfig"
export KUBECONFIG="$WORK/kubeconfig"

# The strictest Pod Security level: the server warns about (and would refuse pods that break) it.
create_namespace() { # name
  api POST /api/v1/namespaces -o "$WORK/ns.json" -d "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"$1\",\"labels\":{
    \"pod-security.kubernetes.io/enforce\":\"restricted\",\"pod-security.kubernetes.io/warn\":\"restricted\",
    \"pod-security.kubernetes.io/audit\":\"restricted\"}}}"
  grep -q '"kind": "Namespace"' "$WORK/ns.json" || { cat "$WORK/ns.json" >&2; fail "could not create the namespace $1"; }
}
create_namespace "$NAMESPACE"

# --- the chart -----------------------------------------------------------------------------------------
NO_CRDS=(--set monitoring.serviceMonitor.enabled=false --set monitoring.prometheusRule.enabled=false)
helm_install() { # label, then helm install arguments
  local label="$1"
  shift
  say "helm install $label"
  if ! "$HELM" install te "$CHART" "${NO_CRDS[@]}" "$@" >"$WORK/helm.out" 2>"$WORK/helm.err"; then
    cat "$WORK/helm.err" >&2
    fail "the API server refused the chart ($label)"
  fi
  # Warnings come back as `W... warnings.go` lines on standard error (Pod Security, deprecations, fields).
  if grep -Ei 'warn|violate|deprecat|unknown field' "$WORK/helm.err" >&2; then
    fail "the API server warned about the chart ($label)"
  fi
}
for values in "$CHART"/ci/*-values.yaml; do
  helm_install "--dry-run=server -f ci/$(basename "$values")" --namespace "$NAMESPACE" --dry-run=server -f "$values"
done
# helm's --dry-run=server sends no object to the server (it reads the cluster for `lookup` only), so each
# values file is also installed for real, in a namespace of its own. Its hooks (the migrate Jobs, their
# ServiceAccount and Secret) would wait for Jobs no controller runs here: `--no-hooks`, and the hook
# objects are created one by one through the API (create_hooks).
cat >"$WORK/create-hooks.py" <<'PY'
"""Creates the hook objects of a rendered chart (stdin) in namespace argv[1] through the API; prints the
server's warnings; exits non-zero on a refusal. Field validation is strict: an unknown field is refused."""
import json, os, ssl, sys, urllib.error, urllib.request
import yaml

namespace, failed = sys.argv[1], 0
ctx = ssl._create_unverified_context()  # the server's self-signed certificate, on the loopback
for doc in yaml.safe_load_all(sys.stdin):
    if not doc or "helm.sh/hook" not in (doc["metadata"].get("annotations") or {}):
        continue
    group = doc["apiVersion"]
    plural = doc["kind"].lower() + "s"
    base = f"/api/{group}" if "/" not in group else f"/apis/{group}"
    url = f"https://127.0.0.1:{os.environ['API_PORT']}{base}/namespaces/{namespace}/{plural}?fieldValidation=Strict"
    req = urllib.request.Request(url, data=json.dumps(doc).encode(), method="POST", headers={
        "Authorization": f"Bearer {os.environ['TOKEN']}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, context=ctx) as res:
            for w in res.headers.get_all("Warning") or []:
                print(f"Warning ({doc['kind']}/{doc['metadata']['name']}): {w}", file=sys.stderr)
    except urllib.error.HTTPError as e:
        print(f"refused {doc['kind']}/{doc['metadata']['name']}: {e.read().decode()}", file=sys.stderr)
        failed += 1
sys.exit(1 if failed else 0)
PY
for values in "$CHART"/ci/*-values.yaml; do
  name="$(basename "$values" -values.yaml)"
  create_namespace "$NAMESPACE-$name"
  helm_install "--no-hooks -f ci/$name-values.yaml in $NAMESPACE-$name (created for real)" --namespace "$NAMESPACE-$name" --no-hooks -f "$values"
  say "  the hook objects, one by one"
  "$HELM" template te "$CHART" --namespace "$NAMESPACE-$name" --kube-version "$KUBE_VERSION" "${NO_CRDS[@]}" -f "$values" \
    | API_PORT="$API_PORT" TOKEN="$TOKEN" python3 "$WORK/create-hooks.py" "$NAMESPACE-$name" 2>"$WORK/hooks.err" \
    || { cat "$WORK/hooks.err" >&2; fail "the API server refused a hook object ($name)"; }
  if grep -i 'warn' "$WORK/hooks.err" >&2; then fail "the API server warned about a hook object ($name)"; fi
done
NAMESPACE="$NAMESPACE-test"
count() { # API path of a list: how many items the server holds
  api GET "$1" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["items"]))'
}
# What the CI values render without the Prometheus Operator kinds (scripts/chart-check.sh's counts).
expected="8 Job, 8 Deployment, 8 Service, 10 NetworkPolicy, 7 HorizontalPodAutoscaler, 8 PodDisruptionBudget, 1 Ingress"
held="$(count "/apis/batch/v1/namespaces/$NAMESPACE/jobs") Job"
held+=", $(count "/apis/apps/v1/namespaces/$NAMESPACE/deployments") Deployment"
held+=", $(count "/api/v1/namespaces/$NAMESPACE/services") Service"
held+=", $(count "/apis/networking.k8s.io/v1/namespaces/$NAMESPACE/networkpolicies") NetworkPolicy"
held+=", $(count "/apis/autoscaling/v2/namespaces/$NAMESPACE/horizontalpodautoscalers") HorizontalPodAutoscaler"
held+=", $(count "/apis/policy/v1/namespaces/$NAMESPACE/poddisruptionbudgets") PodDisruptionBudget"
held+=", $(count "/apis/networking.k8s.io/v1/namespaces/$NAMESPACE/ingresses") Ingress"
say "the API server holds: $held"
[ "$held" = "$expected" ] || fail "expected $expected"

# The server's own judgement must be able to fail the check: a container allowed to escalate privileges
# breaks Pod Security `restricted`, which the server warns about for a Deployment's pod template.
create_namespace "$NAMESPACE-negative"
say "helm install must draw the server's warning: allowPrivilegeEscalation true"
"$HELM" install te "$CHART" --namespace "$NAMESPACE-negative" "${NO_CRDS[@]}" --no-hooks -f "$CHART/ci/test-values.yaml" \
  --set defaults.securityContext.allowPrivilegeEscalation=true >/dev/null 2>"$WORK/helm.err" || true
grep -q 'would violate PodSecurity .*allowPrivilegeEscalation != false' "$WORK/helm.err" \
  || { cat "$WORK/helm.err" >&2; fail "the API server did not warn about a container that may escalate privileges"; }
say "OK in $(($(date +%s) - START))s"
