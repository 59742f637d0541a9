{{/*
Helpers. Most take a "context" dict: (dict "root" $ "name" <service name>) and, where noted, "cfg"
(the service's merged configuration from "te.serviceConfig").
*/}}

{{- define "te.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-wide prefix; 44 characters leave room for "-webhook-dispatcher" within 63. */}}
{{- define "te.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 44 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 44 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 44 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "te.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of an object: <fullname>-<name> (a service, or a suffix such as "migrate"), at most 63 characters. ctx: root, name */}}
{{- define "te.componentName" -}}
{{- printf "%s-%s" (include "te.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels. ctx: root, name (optional: without it, the release-wide selector) */}}
{{- define "te.selectorLabels" -}}
app.kubernetes.io/name: {{ include "te.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .name }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{/* Common labels. ctx: root, name (optional) */}}
{{- define "te.labels" -}}
helm.sh/chart: {{ include "te.chart" .root }}
{{ include "te.selectorLabels" . }}
app.kubernetes.io/part-of: travel-expense
app.kubernetes.io/version: {{ include "te.imageTag" .root | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
Deep merge of two maps where "over" wins, including false/0/"" (sprig's merge functions skip those).
ctx: base, over. Returns YAML; callers use fromYaml.
*/}}
{{- define "te.merge" -}}
{{- $out := deepCopy .base -}}
{{- range $k, $v := .over -}}
{{- if and (kindIs "map" $v) (hasKey $out $k) (kindIs "map" (get $out $k)) -}}
{{- $_ := set $out $k (fromYaml (include "te.merge" (dict "base" (get $out $k) "over" $v))) -}}
{{- else -}}
{{- $_ := set $out $k $v -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* A service's configuration: `defaults` overridden by `services.<name>`. ctx: root, name. Returns YAML. */}}
{{- define "te.serviceConfig" -}}
{{- include "te.merge" (dict "base" .root.Values.defaults "over" (index .root.Values.services .name)) -}}
{{- end -}}

{{/* Sorted names of the enabled services, as a YAML list. */}}
{{- define "te.enabledServices" -}}
{{- $names := list -}}
{{- range $name := keys .Values.services | sortAlpha -}}
{{- if (index $.Values.services $name).enabled -}}
{{- $names = append $names $name -}}
{{- end -}}
{{- end -}}
{{- toYaml $names -}}
{{- end -}}

{{/* Image tag: image.tag or the chart's appVersion. ctx: root ($) */}}
{{- define "te.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag -}}
{{- end -}}

{{/* Image reference of a service. ctx: root, name */}}
{{- define "te.image" -}}
{{- $img := .root.Values.image -}}
{{- $repo := printf "%s/%s%s" (trimSuffix "/" $img.registry) $img.repositoryPrefix .name -}}
{{- if $img.digest -}}
{{- printf "%s:%s@%s" $repo (include "te.imageTag" .root) $img.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (include "te.imageTag" .root) -}}
{{- end -}}
{{- end -}}

{{/* ServiceAccount name. ctx: root, name, cfg */}}
{{- define "te.serviceAccountName" -}}
{{- if .cfg.serviceAccount.create -}}
{{- default (include "te.componentName" .) .cfg.serviceAccount.name -}}
{{- else -}}
{{- default "default" .cfg.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* In-cluster base URL of a service. ctx: root, name */}}
{{- define "te.serviceUrl" -}}
{{- $port := int (index .root.Values.services .name).port -}}
{{- printf "http://%s.%s.svc.%s:%d" (include "te.componentName" .) .root.Release.Namespace .root.Values.clusterDomain $port -}}
{{- end -}}

{{/* Environment variable name holding a service's URL: reference-fx -> REFERENCE_FX_URL */}}
{{- define "te.urlEnvName" -}}
{{- printf "%s_URL" (. | upper | replace "-" "_") -}}
{{- end -}}

{{/*
Services the given service calls over HTTP, as a YAML list: the gateway calls every enabled service;
others call the services that list them in allowedCallers. ctx: root, name
*/}}
{{- define "te.callees" -}}
{{- $callees := list -}}
{{- range $target := fromYamlArray (include "te.enabledServices" .root) -}}
{{- if ne $target $.name -}}
{{- $tcfg := fromYaml (include "te.serviceConfig" (dict "root" $.root "name" $target)) -}}
{{- if or (eq $.name "gateway") (has $.name ($tcfg.allowedCallers | default list)) -}}
{{- $callees = append $callees $target -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml $callees -}}
{{- end -}}

{{/* Name of the Secret holding MONGO_URL etc. ctx: root ($) */}}
{{- define "te.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{- .Values.secrets.existingSecret -}}
{{- else -}}
{{- include "te.componentName" (dict "root" . "name" "secrets") -}}
{{- end -}}
{{- end -}}

{{/*
The Secret's data map (base64). Fails with a message naming the missing value when neither
existingSecret nor the value is given. ctx: root ($)
*/}}
{{- define "te.secretData" -}}
{{- $s := .Values.secrets -}}
{{- $hint := "or set secrets.existingSecret to a Secret you manage (see docs/deployment.md)" -}}
{{ $s.keys.mongoUrl }}: {{ required (printf "secrets.mongoUrl is required (MongoDB replica set URL), %s" $hint) $s.mongoUrl | b64enc | quote }}
{{ $s.keys.amqpUrl }}: {{ required (printf "secrets.amqpUrl is required (RabbitMQ URL), %s" $hint) $s.amqpUrl | b64enc | quote }}
{{- range $name := fromYamlArray (include "te.enabledServices" $) }}
{{ include "te.signingKeyName" (dict "root" $ "name" $name) }}: {{ required (printf "secrets.signingKeys.%s is required (the Ed25519 private key of %s: npm run keys -- generate), %s" $name $name $hint) (index ($s.signingKeys | default dict) $name) | b64enc | quote }}
{{- end }}
{{- if (index .Values.services "webhook-dispatcher").enabled }}
{{- $key := required (printf "secrets.webhookSecretEncryptionKey is required (32 random bytes, base64: openssl rand -base64 32), %s" $hint) $s.webhookSecretEncryptionKey }}
{{- if ne (len (b64dec $key)) 32 }}
{{- fail "secrets.webhookSecretEncryptionKey must be 32 bytes, base64-encoded (openssl rand -base64 32)" }}
{{- end }}
{{ $s.keys.webhookSecretEncryptionKey }}: {{ $key | b64enc | quote }}
{{- end }}
{{- end -}}

{{/* Key of a process's Ed25519 private key in the Secret: gateway -> INTERNAL_SIGNING_KEY_GATEWAY. ctx: root, name */}}
{{- define "te.signingKeyName" -}}
{{- printf "%s%s" .root.Values.secrets.keys.signingKeyPrefix (.name | upper | replace "-" "_") -}}
{{- end -}}

{{/*
INTERNAL_TRUSTED_KEYS of a service: the gateway's public key and those of the enabled services in its
allowedCallers, so a service accepts internal calls only from the callers it lists (docs/decisions/0102).
Public keys are values (Helm cannot derive them from the private ones). ctx: root, name, cfg
*/}}
{{- define "te.trustedKeys" -}}
{{- $root := .root -}}
{{- $public := $root.Values.internalKeys.publicKeys | default dict -}}
{{- $enabled := fromYamlArray (include "te.enabledServices" $root) -}}
{{- $entries := list -}}
{{- range $issuer := prepend (.cfg.allowedCallers | default list) "gateway" | uniq -}}
{{- if or (eq $issuer "gateway") (has $issuer $enabled) -}}
{{- $key := required (printf "internalKeys.publicKeys.%s is required (the public key of %s, which %s trusts: npm run keys -- generate)" $issuer $issuer $.name) (index $public $issuer) -}}
{{- range $k := ($key | kindIs "slice" | ternary $key (list $key)) -}}
{{- $entries = append $entries (printf "%s:%s" $issuer $k) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- join "," $entries -}}
{{- end -}}

{{/* Reference to a key of the Secret, for env valueFrom. ctx: root, key */}}
{{- define "te.secretEnv" -}}
valueFrom:
  secretKeyRef:
    name: {{ include "te.secretName" .root }}
    key: {{ .key }}
{{- end -}}

{{/*
Environment of a service (also used by its migrate Job). ctx: root, name, cfg, secretName (optional:
the Secret to read from, default te.secretName)
*/}}
{{- define "te.env" -}}
{{- $root := .root -}}
{{- $keys := $root.Values.secrets.keys -}}
{{- $secretName := default (include "te.secretName" $root) .secretName -}}
- name: NODE_ENV
  value: {{ $root.Values.config.nodeEnv | quote }}
- name: PORT
  value: {{ int .cfg.port | quote }}
# /healthz, /readyz and /metrics: never on PORT, so nothing reaches them through the gateway.
- name: OPS_PORT
  value: {{ int .cfg.opsPort | quote }}
# Services bind loopback by default (safe on a laptop); in a pod they must listen on every interface.
- name: HOST
  value: "0.0.0.0"
- name: SERVICE_NAME
  value: {{ .name | quote }}
- name: LOG_LEVEL
  value: {{ default $root.Values.config.logLevel .cfg.logLevel | quote }}
- name: MONGO_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $keys.mongoUrl }}
- name: AMQP_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $keys.amqpUrl }}
# Each process reads only its own private key from the Secret (docs/decisions/0102).
- name: INTERNAL_SIGNING_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ include "te.signingKeyName" (dict "root" $root "name" .name) }}
{{- if ne .name "gateway" }}
- name: INTERNAL_TRUSTED_KEYS
  value: {{ include "te.trustedKeys" . | quote }}
{{- end }}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: OTEL_SERVICE_NAME
  value: {{ .name | quote }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "service.namespace=travel-expense,service.version=%s,k8s.namespace.name=$(POD_NAMESPACE),k8s.pod.name=$(POD_NAME)" (include "te.imageTag" $root) | quote }}
{{- with $root.Values.config.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- range $callee := fromYamlArray (include "te.callees" .) }}
- name: {{ include "te.urlEnvName" $callee }}
  value: {{ include "te.serviceUrl" (dict "root" $root "name" $callee) | quote }}
{{- end }}
{{- if eq .name "webhook-dispatcher" }}
{{- $wd := $root.Values.webhookDispatcher }}
- name: WEBHOOK_RETRY_SCHEDULE
  value: {{ $wd.retrySchedule | quote }}
- name: WEBHOOK_ALLOWED_PRIVATE_CIDRS
  value: {{ join "," $wd.allowedPrivateCidrs | quote }}
- name: WEBHOOK_TIMEOUT_MS
  value: {{ int $wd.timeoutMs | quote }}
- name: WEBHOOK_SECRET_ENCRYPTION_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $keys.webhookSecretEncryptionKey }}
{{- end }}
{{- with .cfg.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The writable /tmp (the root filesystem is read-only). ctx: cfg */}}
{{- define "te.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .cfg.tmpSizeLimit }}
{{- end -}}

{{/* NetworkPolicy egress rule to a list of peers on a list of TCP ports (no peers: any destination). */}}
{{- define "te.egressRule" -}}
- ports:
  {{- range .ports }}
    - protocol: TCP
      port: {{ int . }}
  {{- end }}
  {{- with .peers }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* Pod annotations: the service's own plus, for a chart-created Secret, its checksum so pods roll
when it changes. ctx: root, cfg. Returns YAML. */}}
{{- define "te.podAnnotations" -}}
{{- $ann := deepCopy (.cfg.podAnnotations | default dict) -}}
{{- if not .root.Values.secrets.existingSecret -}}
{{- $_ := set $ann "checksum/secrets" (include "te.secretData" .root | sha256sum) -}}
{{- end -}}
{{- toYaml $ann -}}
{{- end -}}

{{/* NetworkPolicy egress rule for DNS (UDP and TCP). ctx: root ($) */}}
{{- define "te.dnsEgressRule" -}}
{{- $dns := .Values.networkPolicy.dns -}}
- ports:
  {{- range $dns.ports }}
    - protocol: UDP
      port: {{ int . }}
    - protocol: TCP
      port: {{ int . }}
  {{- end }}
  {{- with $dns.networkPolicyPeers }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* NetworkPolicy egress rules every service needs: MongoDB, RabbitMQ, and the OTLP collector when set. */}}
{{- define "te.infraEgressRules" -}}
{{- include "te.egressRule" (dict "ports" .Values.mongodb.ports "peers" .Values.mongodb.networkPolicyPeers) }}
{{ include "te.egressRule" (dict "ports" .Values.rabbitmq.ports "peers" .Values.rabbitmq.networkPolicyPeers) }}
{{- if .Values.config.otel.endpoint }}
{{ include "te.egressRule" (dict "ports" .Values.config.otel.ports "peers" .Values.config.otel.networkPolicyPeers) }}
{{- end }}
{{- end -}}

{{/* Non-empty when at least one enabled service runs a migrate Job. ctx: root ($) */}}
{{- define "te.anyMigrate" -}}
{{- range $name := fromYamlArray (include "te.enabledServices" .) -}}
{{- $cfg := fromYaml (include "te.serviceConfig" (dict "root" $ "name" $name)) -}}
{{- if $cfg.migrate.enabled }}{{ $name }} {{ end -}}
{{- end -}}
{{- end -}}
