// Command ferretdb-local runs FerretDB v1.24 with its embedded SQLite backend as the project's
// MongoDB-compatible server for development and tests. It embeds FerretDB's library package because
// the upstream binary built with `go install` panics at start (missing generated version file).
//
// FerretDB v1.24 on SQLite applies an update by reading the document, changing it in Go and writing it
// back, with nothing spanning both steps: two concurrent updates of one document lose one of them
// (50 concurrent $inc end at 9; 20 concurrent compare-and-set updates all "win"). MongoDB makes every
// single-document write atomic, and our code relies on that. So clients talk to a thin wire-protocol
// front that serializes write commands per collection while reads pass through concurrently
// (docs/decisions/0002).
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const (
	opMsg        = 2013
	moreToCome   = 1 << 1
	maxMessageSz = 48 * 1024 * 1024
)

// Commands that read and rewrite documents: serialized per collection.
var writeCommands = map[string]bool{"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true}

type locks struct {
	mu sync.Mutex
	m  map[string]*sync.Mutex
}

func (l *locks) get(key string) *sync.Mutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m[key] == nil {
		l.m[key] = &sync.Mutex{}
	}
	return l.m[key]
}

// readMessage reads one length-prefixed wire-protocol message.
func readMessage(r io.Reader) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	size := int(binary.LittleEndian.Uint32(header[:]))
	if size < 16 || size > maxMessageSz {
		return nil, errors.New("bad message length")
	}
	msg := make([]byte, size)
	copy(msg, header[:])
	_, err := io.ReadFull(r, msg[4:])
	return msg, err
}

// writeTarget returns the collection a write command targets ("" for anything else), and whether the
// client expects no reply (moreToCome).
func writeTarget(msg []byte) (string, bool) {
	if binary.LittleEndian.Uint32(msg[12:16]) != opMsg || len(msg) < 26 {
		return "", false
	}
	flags := binary.LittleEndian.Uint32(msg[16:20])
	noReply := flags&moreToCome != 0
	// Section kind 0 holds the command document; its first element names the command.
	if msg[20] != 0 {
		return "", noReply
	}
	doc := msg[21:]
	elemType := doc[4]
	nameEnd := 5
	for nameEnd < len(doc) && doc[nameEnd] != 0 {
		nameEnd++
	}
	name := string(doc[5:nameEnd])
	if !writeCommands[name] || elemType != 0x02 || nameEnd+5 > len(doc) {
		return "", noReply
	}
	strLen := int(binary.LittleEndian.Uint32(doc[nameEnd+1 : nameEnd+5]))
	start := nameEnd + 5
	if strLen < 1 || start+strLen > len(doc) {
		return "", noReply
	}
	// Keyed by database too, so writes to same-named collections of different databases never wait
	// on each other.
	return topLevelString(doc, "$db") + "." + string(doc[start:start+strLen-1]), noReply
}

// topLevelString returns a string field of a BSON document's top level ("" if absent or unreadable).
func topLevelString(doc []byte, field string) string {
	if len(doc) < 5 {
		return ""
	}
	end := int(binary.LittleEndian.Uint32(doc[0:4]))
	if end > len(doc) {
		return ""
	}
	i := 4
	for i < end-1 {
		t := doc[i]
		j := i + 1
		for j < end && doc[j] != 0 {
			j++
		}
		name := string(doc[i+1 : j])
		v := j + 1
		var size int
		switch t {
		case 0x01, 0x09, 0x11, 0x12: // double, date, timestamp, int64
			size = 8
		case 0x02, 0x0D, 0x0E: // string, code, symbol
			if v+4 > end {
				return ""
			}
			size = 4 + int(binary.LittleEndian.Uint32(doc[v:v+4]))
			if t == 0x02 && name == field {
				return string(doc[v+4 : v+size-1])
			}
		case 0x03, 0x04: // document, array
			if v+4 > end {
				return ""
			}
			size = int(binary.LittleEndian.Uint32(doc[v : v+4]))
		case 0x05: // binary
			if v+4 > end {
				return ""
			}
			size = 5 + int(binary.LittleEndian.Uint32(doc[v:v+4]))
		case 0x07: // ObjectId
			size = 12
		case 0x08: // bool
			size = 1
		case 0x0A, 0x06, 0x7F, 0xFF: // null, undefined, max/min key
			size = 0
		case 0x10: // int32
			size = 4
		case 0x13: // decimal128
			size = 16
		default: // anything rarer: stop, the collection name alone still keys the lock
			return ""
		}
		i = v + size
	}
	return ""
}

func replyHasMore(msg []byte) bool {
	return binary.LittleEndian.Uint32(msg[12:16]) == opMsg && len(msg) >= 20 &&
		binary.LittleEndian.Uint32(msg[16:20])&moreToCome != 0
}

func serve(client net.Conn, backend string, l *locks) {
	defer client.Close()
	server, err := net.Dial("unix", backend)
	if err != nil {
		log.Printf("backend: %v", err)
		return
	}
	defer server.Close()
	for {
		req, err := readMessage(client)
		if err != nil {
			return
		}
		collection, noReply := writeTarget(req)
		var held *sync.Mutex
		if collection != "" {
			held = l.get(collection)
			held.Lock()
		}
		err = func() error {
			if _, err := server.Write(req); err != nil {
				return err
			}
			if noReply {
				return nil
			}
			for {
				reply, err := readMessage(server)
				if err != nil {
					return err
				}
				if _, err := client.Write(reply); err != nil {
					return err
				}
				if !replyHasMore(reply) {
					return nil
				}
			}
		}()
		if held != nil {
			held.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("data", "data", "directory for the SQLite database files")
	flag.Parse()

	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	socket := filepath.Join(abs, "ferretdb.sock")
	if len(socket) > 100 { // Unix socket paths are limited to about 108 bytes
		socket = filepath.Join(os.TempDir(), "ferretdb-"+filepath.Base(filepath.Dir(abs))+"-"+filepath.Base(abs)+".sock")
	}
	_ = os.Remove(socket)

	f, err := ferretdb.New(&ferretdb.Config{
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
		Listener:  ferretdb.ListenerConfig{Unix: socket},
	})
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	log.Printf("ferretdb-local listening on %s, data in %s", *listen, abs)

	l := &locks{m: map[string]*sync.Mutex{}}
	for {
		conn, err := ln.Accept()
		if err != nil {
			break
		}
		go serve(conn, socket, l)
	}
	if err := <-done; err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
