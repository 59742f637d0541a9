//go:build tools

// Package tools pins the Kubernetes API server that scripts/chart-server-check.sh builds from this module
// (`go build k8s.io/kubernetes/cmd/kube-apiserver`): go.mod requires k8s.io/kubernetes and replaces its
// staging modules (k8s.io/api, k8s.io/apiserver, ...) with their published versions, which is how a
// module outside the kubernetes repository can import it (decision 0223).
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver/app"
