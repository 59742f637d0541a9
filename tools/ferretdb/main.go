// Command ferretdb-local runs FerretDB v1.24 with its embedded SQLite backend as the project's
// MongoDB-compatible server for development and tests. It embeds FerretDB's library package because
// the upstream binary built with `go install` panics at start (missing generated version file).
//
// FerretDB v1.24 on SQLite applies an update by reading the document, changing it in Go and writing it
// back, with nothing spanning both steps: two concurrent updates of one document lose one of them
// (50 concurrent $inc end at 9; 20 concurrent compare-and-set updates all "win"). MongoDB makes every
// single-document write atomic, and our code relies on that. So clients talk to a thin wire-protocol
// front that serializes write commands per collection while reads pass through concurrently
// (docs/decisions/0002). The front fails closed: a command it does not know to be a read runs alone
// (no write in flight), compressed messages and bulkWrite are refused, an unacknowledged write is
// made acknowledged so its lock covers it, and every wait of a serialized command (for its lock, for the
// backend's answer) has a deadline past which the client gets an error; a command whose backend answer is
// late keeps its lock until the backend has answered (docs/decisions/0087), and the patched FerretDB
// bounds every write command itself (-write-timeout).
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof" // served only with -pprof, for profiling the store under load
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
)

const (
	opReply      = 1
	opQuery      = 2004
	opCompressed = 2012
	opMsg        = 2013

	checksumPresent = 1 << 0
	moreToCome      = 1 << 1
	maxMessageSz    = 48 * 1024 * 1024
)

// What the front does with one client message.
type action int

const (
	// passRead: a read or session/handshake command; forwarded with no lock.
	passRead action = iota
	// lockCollection: a write of documents; serialized per collection (and against exclusive commands).
	lockCollection
	// lockAll: a command the front does not know to be a read (DDL, admin, anything new or unknown);
	// runs alone, with no write of any collection in flight. Fails closed.
	lockAll
	// refuse: answered by the front with an error, never forwarded.
	refuse
	// hangUp: not a message the front can answer; the connection is closed.
	hangUp
)

// Commands that read and rewrite documents: serialized per collection.
var writeCommands = map[string]bool{"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true}

// Commands known to change no data: forwarded without a lock. Anything not here and not a write command
// is serialized against everything (lockAll), so a command we did not foresee cannot race a write.
var readCommands = map[string]bool{
	"find": true, "getMore": true, "count": true, "distinct": true, "listIndexes": true, "listCollections": true,
	"listDatabases": true, "hello": true, "isMaster": true, "ismaster": true, "ping": true, "buildInfo": true,
	"buildinfo": true, "killCursors": true, "endSessions": true, "saslStart": true, "saslContinue": true,
	"getParameter": true, "dbStats": true, "dbstats": true, "collStats": true, "serverStatus": true,
	"connectionStatus": true, "whatsmyuri": true, "getLog": true, "hostInfo": true, "getCmdLineOpts": true,
	"getFreeMonitoringStatus": true, "dataSize": true, "explain": true, "listCommands": true,
	"logout": true, "authenticate": true, "usersInfo": true, "startSession": true, "refreshSessions": true,
	"killAllSessions": true, "getnonce": true, "currentOp": true, "atlasVersion": true,
	// aggregate with $out/$merge writes in MongoDB; FerretDB v1.24 refuses both stages.
	"aggregate": true,
}

// Refused outright, with the reason given to the client.
var refusedCommands = map[string]string{
	// MongoDB 8's multi-collection bulk write: FerretDB has no such command, and the front could not
	// lock the collections it names.
	"bulkWrite": "bulkWrite is not supported by this server (tools/ferretdb); use insert/update/delete",
}

// locks serializes writes: per collection, and all of them against lockAll commands. Every wait is
// bounded: a request that cannot have its lock within the deadline is answered with an error instead.
// (sync.Mutex has no timed wait, hence the state and a channel closed at every release.)
type locks struct {
	mu          sync.Mutex
	held        map[string]bool // collection keys held
	collections int             // collection locks held
	exclusive   bool            // a lockAll command holds everything
	exclWaiting int             // lockAll commands waiting: new collection writes queue behind them
	changed     chan struct{}   // closed and replaced whenever a lock is released or a waiter gives up
}

func newLocks() *locks { return &locks{held: map[string]bool{}, changed: make(chan struct{})} }

var errLockWait = errors.New("lock wait deadline")

// broadcast wakes every waiter; l.mu is held.
func (l *locks) broadcast() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// acquire takes what the action needs, waiting until deadline at most, and returns its release.
func (l *locks) acquire(a action, key string, deadline time.Time) (func(), error) {
	if a != lockCollection && a != lockAll {
		return func() {}, nil
	}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	l.mu.Lock()
	if a == lockAll {
		l.exclWaiting++
	}
	for {
		switch {
		case a == lockCollection && !l.exclusive && l.exclWaiting == 0 && !l.held[key]:
			l.held[key] = true
			l.collections++
			l.mu.Unlock()
			return func() {
				l.mu.Lock()
				delete(l.held, key)
				l.collections--
				l.broadcast()
				l.mu.Unlock()
			}, nil
		case a == lockAll && !l.exclusive && l.collections == 0:
			l.exclWaiting--
			l.exclusive = true
			l.mu.Unlock()
			return func() {
				l.mu.Lock()
				l.exclusive = false
				l.broadcast()
				l.mu.Unlock()
			}, nil
		}
		changed := l.changed
		l.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(time.Until(deadline))
		}
		select {
		case <-changed:
			l.mu.Lock()
		case <-timer.C:
			l.mu.Lock()
			if a == lockAll {
				l.exclWaiting--
				l.broadcast() // collection writes held back by this waiter may go now
			}
			l.mu.Unlock()
			return nil, errLockWait
		}
	}
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

func opCode(msg []byte) uint32 { return binary.LittleEndian.Uint32(msg[12:16]) }

// commandDoc returns the command document of an OP_MSG (its kind-0 section, wherever it is among the
// sections) and the message's flag bits.
func commandDoc(msg []byte) ([]byte, uint32, error) {
	if len(msg) < 21 {
		return nil, 0, errors.New("short OP_MSG")
	}
	flags := binary.LittleEndian.Uint32(msg[16:20])
	end := len(msg)
	if flags&checksumPresent != 0 {
		end -= 4
	}
	var doc []byte
	for i := 20; i < end; {
		kind := msg[i]
		i++
		if i+4 > end {
			return nil, 0, errors.New("truncated section")
		}
		size := int(binary.LittleEndian.Uint32(msg[i : i+4]))
		if size < 5 || i+size > end {
			return nil, 0, errors.New("bad section size")
		}
		switch kind {
		case 0:
			if doc != nil {
				return nil, 0, errors.New("two command sections")
			}
			doc = msg[i : i+size]
		case 1: // document sequence: size, identifier, documents; the command is elsewhere
		default:
			return nil, 0, errors.New("unknown section kind")
		}
		i += size
	}
	if doc == nil {
		return nil, 0, errors.New("no command section")
	}
	return doc, flags, nil
}

// firstElement returns the name of a BSON document's first element, its type, and the offset of its value.
func firstElement(doc []byte) (string, byte, int, bool) {
	if len(doc) < 6 || doc[4] == 0 {
		return "", 0, 0, false
	}
	j := 5
	for j < len(doc) && doc[j] != 0 {
		j++
	}
	if j >= len(doc) {
		return "", 0, 0, false
	}
	return string(doc[5:j]), doc[4], j + 1, true
}

// bsonString reads a BSON string value at offset v.
func bsonString(doc []byte, v int) (string, bool) {
	if v+4 > len(doc) {
		return "", false
	}
	n := int(binary.LittleEndian.Uint32(doc[v : v+4]))
	if n < 1 || v+4+n > len(doc) {
		return "", false
	}
	return string(doc[v+4 : v+4+n-1]), true
}

// classify decides what the front does with a client message; for lockCollection it also returns the
// lock key (database.collection), and for refuse the reason.
func classify(msg []byte) (action, string) {
	switch opCode(msg) {
	case opMsg:
		doc, _, err := commandDoc(msg)
		if err != nil {
			return refuse, "malformed OP_MSG: " + err.Error()
		}
		name, typ, v, ok := firstElement(doc)
		if !ok {
			return refuse, "empty command"
		}
		if reason, ok := refusedCommands[name]; ok {
			return refuse, reason
		}
		if readCommands[name] {
			return passRead, ""
		}
		if writeCommands[name] {
			coll, ok := bsonString(doc, v)
			if typ != 0x02 || !ok {
				return lockAll, "" // an odd write: still serialized, against everything
			}
			// Keyed by database too, so writes to same-named collections of different databases never
			// wait on each other.
			return lockCollection, topLevelString(doc, "$db") + "." + coll
		}
		return lockAll, ""
	case opQuery:
		// Legacy OP_QUERY: drivers use it for the first handshake only.
		if name, ok := opQueryCommand(msg); ok && (name == "hello" || name == "isMaster" || name == "ismaster") {
			return passRead, ""
		}
		return lockAll, ""
	case opCompressed:
		// Never negotiated (FerretDB advertises no compressor in hello), and a compressed write could
		// not be classified: refused.
		return refuse, "compressed messages (OP_COMPRESSED) are not supported by this server"
	}
	return hangUp, ""
}

// opQueryCommand returns the command name of an OP_QUERY on a `$cmd` collection.
func opQueryCommand(msg []byte) (string, bool) {
	i := 20
	j := i
	for j < len(msg) && msg[j] != 0 {
		j++
	}
	if j >= len(msg) || !strings.HasSuffix(string(msg[i:j]), ".$cmd") {
		return "", false
	}
	q := j + 1 + 8 // numberToSkip, numberToReturn
	if q+5 > len(msg) {
		return "", false
	}
	name, typ, v, ok := firstElement(msg[q:])
	if ok && (name == "$query" || name == "query") && typ == 0x03 {
		name, _, _, ok = firstElement(msg[q+v:])
	}
	return name, ok
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

// errorReply builds an OP_MSG answering request with {ok: 0, errmsg, code: CommandNotSupported}.
func errorReply(request []byte, errmsg string) []byte {
	return errorReplyCode(request, errmsg, 115, "CommandNotSupported")
}

// errorReplyCode builds an OP_MSG answering request with {ok: 0, errmsg, code, codeName}.
func errorReplyCode(request []byte, errmsg string, code int32, codeName string) []byte {
	doc, err := bson.Marshal(bson.D{
		{Key: "ok", Value: 0.0}, {Key: "errmsg", Value: errmsg},
		{Key: "code", Value: code}, {Key: "codeName", Value: codeName},
	})
	if err != nil {
		panic(err)
	}
	msg := make([]byte, 21, 21+len(doc))
	binary.LittleEndian.PutUint32(msg[8:12], binary.LittleEndian.Uint32(request[4:8])) // responseTo
	binary.LittleEndian.PutUint32(msg[12:16], opMsg)
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:4], uint32(len(msg)))
	return msg
}

// acknowledged returns an OP_MSG with moreToCome cleared (and its checksum dropped, since the flags
// change): a locked write must hold its lock until the backend has applied it, so the front asks for the
// reply the client did not want, and swallows it.
func acknowledged(msg []byte) []byte {
	flags := binary.LittleEndian.Uint32(msg[16:20])
	out := append([]byte(nil), msg...)
	if flags&checksumPresent != 0 {
		out = out[:len(out)-4]
	}
	binary.LittleEndian.PutUint32(out[16:20], flags&^(moreToCome|checksumPresent))
	binary.LittleEndian.PutUint32(out[0:4], uint32(len(out)))
	return out
}

// front relays client connections to FerretDB's socket, serializing writes (see locks).
type front struct {
	backend string
	locks   *locks
	// lockTimeout bounds both waits of a serialized command: for its lock, and for the backend's answer.
	lockTimeout time.Duration
}

// errBackendDeadline: the backend did not answer a locked command in time; its connection was handed to
// drain, which keeps the lock until the backend has answered.
var errBackendDeadline = errors.New("backend deadline")

func (f *front) serve(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("unix", f.backend)
	if err != nil {
		log.Printf("backend: %v", err)
		return
	}
	defer func() {
		if server != nil {
			server.Close()
		}
	}()
	for {
		req, err := readMessage(client)
		if err != nil {
			return
		}
		act, detail := classify(req)
		switch act {
		case hangUp:
			log.Printf("closing a connection that sent opcode %d", opCode(req))
			return
		case refuse:
			if _, err := client.Write(errorReply(req, detail)); err != nil {
				return
			}
			continue
		case passRead:
			if err := relay(client, server, req); err != nil {
				return
			}
			continue
		}
		err = f.locked(client, server, req, act, detail)
		if errors.Is(err, errBackendDeadline) {
			server = nil // drain owns it now
			log.Printf("backend did not answer a serialized command (%s) within %s; answered with an error, lock kept until the backend answers", lockName(act, detail), f.lockTimeout)
			if !noReply(req) {
				_, _ = client.Write(errorReplyCode(req, "tools/ferretdb: the store did not answer within "+f.lockTimeout.String()+
					"; the write may still be applied, and writes to "+lockName(act, detail)+" wait until it has answered", 50, "MaxTimeMSExpired"))
			}
			return
		}
		if err != nil {
			return
		}
	}
}

func lockName(act action, key string) string {
	if act == lockAll {
		return "every collection"
	}
	return key
}

func noReply(req []byte) bool {
	return opCode(req) == opMsg && binary.LittleEndian.Uint32(req[16:20])&moreToCome != 0
}

// relay forwards an unlocked request and streams its replies back.
func relay(client, server net.Conn, req []byte) error {
	if _, err := server.Write(req); err != nil {
		return err
	}
	if opCode(req) == opMsg && binary.LittleEndian.Uint32(req[16:20])&moreToCome != 0 {
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
}

// locked runs a request under its lock: the backend's whole answer is read with a deadline while the
// lock is held, then the lock is released before anything is written to the client (a slow client
// holds no lock either).
//
// It fails closed. A request that cannot have its lock within lockTimeout is answered with an error and
// never forwarded. When the backend does not answer within lockTimeout, the lock is NOT released: the
// front cannot stop a command the backend is running, and letting the next write in beside it would
// break the serialization this front exists for. The connection goes to drain, which releases the lock
// once the backend has answered (the patched FerretDB gives every write command its own, shorter,
// deadline: -write-timeout), and the caller gets errBackendDeadline.
func (f *front) locked(client, server net.Conn, req []byte, act action, key string) error {
	quiet := noReply(req)
	if quiet {
		req = acknowledged(req)
	}
	release, err := f.locks.acquire(act, key, time.Now().Add(f.lockTimeout))
	if err != nil {
		if quiet {
			return err // nobody reads an answer: close the connection rather than drop the write silently
		}
		log.Printf("lock of %s not granted within %s; request refused", lockName(act, key), f.lockTimeout)
		_, err := client.Write(errorReplyCode(req, "tools/ferretdb: the write lock of "+lockName(act, key)+" was not granted within "+
			f.lockTimeout.String()+" (an earlier command on it has not finished); nothing was done", 50, "MaxTimeMSExpired"))
		return err
	}
	var replies [][]byte
	err = func() error {
		if err := server.SetDeadline(time.Now().Add(f.lockTimeout)); err != nil {
			return err
		}
		if _, err := server.Write(req); err != nil {
			return err
		}
		for {
			reply, err := readMessage(server)
			if err != nil {
				return err
			}
			replies = append(replies, reply)
			if !replyHasMore(reply) {
				return server.SetDeadline(time.Time{})
			}
		}
	}()
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		go drain(server, release, lockName(act, key))
		return errBackendDeadline
	}
	release()
	if err != nil {
		return err
	}
	if quiet {
		return nil
	}
	for _, r := range replies {
		if _, err := client.Write(r); err != nil {
			return err
		}
	}
	return nil
}

// drain reads the late answer of a command whose deadline passed, then releases its lock and closes the
// backend connection. A backend that never answers keeps the lock: its writers are refused (fail closed).
func drain(server net.Conn, release func(), name string) {
	defer server.Close()
	start := time.Now()
	_ = server.SetDeadline(time.Time{})
	for {
		reply, err := readMessage(server)
		if err != nil || !replyHasMore(reply) {
			break
		}
	}
	release()
	log.Printf("the late command on %s ended %s after its deadline; lock released", name, time.Since(start).Round(time.Millisecond))
}

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("data", "data", "directory for the SQLite database files")
	lockTimeout := flag.Duration("lock-timeout", 2*time.Minute, "longest wait of a serialized command, for its lock and for the backend's answer; past it the client gets an error")
	writeTimeout := flag.Duration("write-timeout", 0, "deadline of a write command inside FerretDB (default: half of -lock-timeout); must be shorter than -lock-timeout")
	pprofAddr := flag.String("pprof", "", "address of a Go profiling endpoint (/debug/pprof/), e.g. 127.0.0.1:6060; off by default")
	sqliteSync := flag.String("sqlite-synchronous", "normal", "SQLite's synchronous setting for every database: normal (WAL: a commit survives the process's crash, not the machine's; one sync per checkpoint) or full (one sync per commit)")
	gcPercent := flag.Int("gc-percent", 400, "Go GC target percentage unless GOGC is set: the store's live heap is small and short-lived garbage per command large, so Go's default of 100 spends a fifth of the store's CPU collecting")
	flag.Parse()
	if *sqliteSync != "normal" && *sqliteSync != "full" {
		log.Fatal("-sqlite-synchronous is normal or full")
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(*gcPercent)
	}
	if *pprofAddr != "" {
		go func() { log.Printf("pprof: %v", http.ListenAndServe(*pprofAddr, nil)) }()
	}

	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if *writeTimeout == 0 {
		*writeTimeout = *lockTimeout / 2
	}
	if *writeTimeout >= *lockTimeout {
		log.Fatal("-write-timeout must be shorter than -lock-timeout")
	}
	// Read by the patched FerretDB (internal/clientconn/conn.go) for every write command.
	if err := os.Setenv("FERRETDB_LOCAL_WRITE_TIMEOUT", writeTimeout.String()); err != nil {
		log.Fatal(err)
	}
	socket := filepath.Join(abs, "ferretdb.sock")
	if len(socket) > 100 { // Unix socket paths are limited to about 108 bytes
		socket = filepath.Join(os.TempDir(), "ferretdb-"+filepath.Base(filepath.Dir(abs))+"-"+filepath.Base(abs)+".sock")
	}
	_ = os.Remove(socket)

	f, err := ferretdb.New(&ferretdb.Config{
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/?_pragma=synchronous(" + *sqliteSync + ")",
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

	fr := &front{backend: socket, locks: newLocks(), lockTimeout: *lockTimeout}
	for {
		conn, err := ln.Accept()
		if err != nil {
			break
		}
		go fr.serve(conn)
	}
	if err := <-done; err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
