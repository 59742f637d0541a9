// Command ferretdb-local runs FerretDB v1.24 with its embedded SQLite backend as the project's
// MongoDB-compatible server for development and tests. It embeds FerretDB's library package because
// the upstream binary built with `go install` panics at start (missing generated version file).
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("data", "data", "directory for the SQLite database files")
	flag.Parse()

	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Handler:   "sqlite",
		SQLiteURL: "file:" + *dir + "/",
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
	})
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	log.Printf("ferretdb-local listening on %s, data in %s", *listen, *dir)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
