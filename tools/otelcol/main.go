// otelcol-local: the OpenTelemetry Collector as the local stack and the trace test run it. Its upstream
// core (otelcol, the OTLP receiver, the debug exporter) plus one exporter of ours, `tracefile`, that appends
// every batch it receives to a file as one line of OTLP JSON, so a test or `npm run trace` can read the
// spans back without a trace store (docs/decisions/0163).
package main

import (
	"context"
	"log"
	"os"
	"path/filepath"
	"sync"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/confmap/provider/yamlprovider"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/debugexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

// traceFileConfig is the `tracefile` exporter's configuration: the file the lines are appended to.
type traceFileConfig struct {
	Path string `mapstructure:"path"`
}

// traceFile appends each batch of spans as one line of OTLP JSON (the encoding OTLP/HTTP uses).
type traceFile struct {
	path string
	mu   sync.Mutex
	file *os.File
}

func (t *traceFile) Start(context.Context, component.Host) error {
	if err := os.MkdirAll(filepath.Dir(t.path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(t.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	t.file = f
	return err
}

func (t *traceFile) Shutdown(context.Context) error {
	if t.file == nil {
		return nil
	}
	return t.file.Close()
}

func (t *traceFile) Capabilities() consumer.Capabilities { return consumer.Capabilities{} }

func (t *traceFile) ConsumeTraces(_ context.Context, td ptrace.Traces) error {
	line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	// One write per batch: a reader never sees half a line followed by another batch.
	_, err = t.file.Write(append(line, '\n'))
	return err
}

func traceFileFactory() exporter.Factory {
	return exporter.NewFactory(
		component.MustNewType("tracefile"),
		func() component.Config { return &traceFileConfig{Path: "traces.jsonl"} },
		exporter.WithTraces(func(_ context.Context, _ exporter.Settings, cfg component.Config) (exporter.Traces, error) {
			return &traceFile{path: cfg.(*traceFileConfig).Path}, nil
		}, component.StabilityLevelDevelopment),
	)
}

func components() (otelcol.Factories, error) {
	var err error
	factories := otelcol.Factories{Telemetry: otelconftelemetry.NewFactory()}
	if factories.Receivers, err = otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory()); err != nil {
		return factories, err
	}
	factories.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](debugexporter.NewFactory(), traceFileFactory())
	return factories, err
}

func main() {
	settings := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol-local", Description: "OpenTelemetry Collector (local build)", Version: "0.165.0"},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				ProviderFactories: []confmap.ProviderFactory{
					fileprovider.NewFactory(), envprovider.NewFactory(), yamlprovider.NewFactory(),
				},
			},
		},
	}
	if err := otelcol.NewCommand(settings).Execute(); err != nil {
		log.Fatal(err)
	}
}
