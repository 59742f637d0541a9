package main

import (
	"encoding/binary"
	"net"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
)

// buildOpMsg builds an OP_MSG whose section 0 is the given command document.
func buildOpMsg(t *testing.T, flags uint32, cmd bson.D) []byte {
	t.Helper()
	doc, err := bson.Marshal(cmd)
	if err != nil {
		t.Fatal(err)
	}
	msg := make([]byte, 21, 21+len(doc))
	binary.LittleEndian.PutUint32(msg[4:8], 77) // requestID
	binary.LittleEndian.PutUint32(msg[12:16], opMsg)
	binary.LittleEndian.PutUint32(msg[16:20], flags)
	msg[20] = 0
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:4], uint32(len(msg)))
	return msg
}

// withSequenceFirst rebuilds an OP_MSG with a kind-1 document sequence before its command section (the
// wire protocol allows sections in any order).
func withSequenceFirst(t *testing.T, msg []byte, ident string, docs ...bson.D) []byte {
	t.Helper()
	var seq []byte
	seq = append(seq, ident...)
	seq = append(seq, 0)
	for _, d := range docs {
		b, err := bson.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		seq = append(seq, b...)
	}
	section := []byte{1, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(section[1:5], uint32(4+len(seq)))
	section = append(section, seq...)
	out := append(append(append([]byte(nil), msg[:20]...), section...), msg[20:]...)
	binary.LittleEndian.PutUint32(out[0:4], uint32(len(out)))
	return out
}

func buildOpQuery(t *testing.T, ns string, q bson.D) []byte {
	t.Helper()
	doc, err := bson.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	msg := make([]byte, 20, 64+len(doc))
	binary.LittleEndian.PutUint32(msg[12:16], opQuery)
	msg = append(msg, ns...)
	msg = append(msg, 0)
	msg = append(msg, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff)
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:4], uint32(len(msg)))
	return msg
}

func TestClassify(t *testing.T) {
	db := bson.E{Key: "$db", Value: "d"}
	insert := buildOpMsg(t, 0, bson.D{{Key: "insert", Value: "c"}, {Key: "ordered", Value: true}, db})
	compressed := append([]byte(nil), insert...)
	binary.LittleEndian.PutUint32(compressed[12:16], opCompressed)
	legacyInsert := append([]byte(nil), insert...)
	binary.LittleEndian.PutUint32(legacyInsert[12:16], 2002)

	cases := []struct {
		name string
		msg  []byte
		want action
		key  string
	}{
		{"update keyed by database and collection", buildOpMsg(t, 0, bson.D{{Key: "update", Value: "deliveries"}, {Key: "ordered", Value: true}, {Key: "lsid", Value: bson.D{{Key: "id", Value: []byte{1, 2}}}}, {Key: "txnNumber", Value: int64(3)}, {Key: "$db", Value: "t_a_webhook_dispatcher"}}), lockCollection, "t_a_webhook_dispatcher.deliveries"},
		{"insert", insert, lockCollection, "d.c"},
		{"insert with its documents in a sequence before the command", withSequenceFirst(t, insert, "documents", bson.D{{Key: "_id", Value: 1}}), lockCollection, "d.c"},
		{"findAndModify", buildOpMsg(t, 0, bson.D{{Key: "findAndModify", Value: "subscriptions"}, {Key: "new", Value: true}, db}), lockCollection, "d.subscriptions"},
		{"delete without reply", buildOpMsg(t, moreToCome, bson.D{{Key: "delete", Value: "c"}, db}), lockCollection, "d.c"},
		{"a rare field type before $db keeps the collection key", buildOpMsg(t, 0, bson.D{{Key: "update", Value: "c"}, {Key: "re", Value: primitive.Regex{Pattern: "a", Options: "i"}}, db}), lockCollection, ".c"},
		{"a write naming no collection runs alone", buildOpMsg(t, 0, bson.D{{Key: "update", Value: int32(1)}, db}), lockAll, ""},
		{"find passes unlocked", buildOpMsg(t, 0, bson.D{{Key: "find", Value: "deliveries"}, db}), passRead, ""},
		{"getMore passes unlocked", buildOpMsg(t, 0, bson.D{{Key: "getMore", Value: int64(5)}, {Key: "collection", Value: "c"}, db}), passRead, ""},
		{"createIndexes runs alone", buildOpMsg(t, 0, bson.D{{Key: "createIndexes", Value: "c"}, db}), lockAll, ""},
		{"drop runs alone", buildOpMsg(t, 0, bson.D{{Key: "drop", Value: "c"}, db}), lockAll, ""},
		{"an unknown command runs alone", buildOpMsg(t, 0, bson.D{{Key: "frobnicate", Value: "c"}, db}), lockAll, ""},
		{"bulkWrite is refused", buildOpMsg(t, 0, bson.D{{Key: "bulkWrite", Value: int32(1)}, {Key: "$db", Value: "admin"}}), refuse, ""},
		{"OP_COMPRESSED is refused", compressed, refuse, ""},
		{"an OP_MSG with no command section is refused", withSequenceFirst(t, insert, "documents")[:26], refuse, ""},
		{"legacy OP_QUERY handshake passes", buildOpQuery(t, "admin.$cmd", bson.D{{Key: "isMaster", Value: int32(1)}}), passRead, ""},
		{"wrapped OP_QUERY handshake passes", buildOpQuery(t, "admin.$cmd", bson.D{{Key: "$query", Value: bson.D{{Key: "hello", Value: int32(1)}}}}), passRead, ""},
		{"any other OP_QUERY runs alone", buildOpQuery(t, "d.$cmd", bson.D{{Key: "insert", Value: "c"}}), lockAll, ""},
		{"a legacy OP_INSERT hangs up", legacyInsert, hangUp, ""},
	}
	for _, c := range cases {
		got, key := classify(c.msg)
		if got != c.want || (c.want == lockCollection && key != c.key) {
			t.Errorf("%s: got (%v, %q), want (%v, %q)", c.name, got, key, c.want, c.key)
		}
	}
}

// fakeBackend listens on a Unix socket and answers every message with {ok: 1} after delay(n), n being
// the message's sequence number; it records what it received.
type fakeBackend struct {
	path     string
	received chan []byte
	count    atomic.Int32
}

func startFakeBackend(t *testing.T, delay func(n int32) time.Duration) *fakeBackend {
	t.Helper()
	b := &fakeBackend{path: filepath.Join(t.TempDir(), "b.sock"), received: make(chan []byte, 100)}
	ln, err := net.Listen("unix", b.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				for {
					req, err := readMessage(conn)
					if err != nil {
						return
					}
					n := b.count.Add(1)
					b.received <- req
					time.Sleep(delay(n))
					doc, _ := bson.Marshal(bson.D{{Key: "ok", Value: 1.0}})
					reply := make([]byte, 21, 21+len(doc))
					binary.LittleEndian.PutUint32(reply[8:12], binary.LittleEndian.Uint32(req[4:8]))
					binary.LittleEndian.PutUint32(reply[12:16], opMsg)
					reply = append(reply, doc...)
					binary.LittleEndian.PutUint32(reply[0:4], uint32(len(reply)))
					if _, err := conn.Write(reply); err != nil {
						return
					}
				}
			}()
		}
	}()
	return b
}

// startFront runs the front before the backend on a free TCP port and returns a dial function.
func startFront(t *testing.T, backend string, timeout time.Duration) func() net.Conn {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	f := &front{backend: backend, locks: newLocks(), lockTimeout: timeout}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	return func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		return c
	}
}

func roundTrip(t *testing.T, c net.Conn, msg []byte) (bson.M, error) {
	t.Helper()
	if _, err := c.Write(msg); err != nil {
		return nil, err
	}
	reply, err := readMessage(c)
	if err != nil {
		return nil, err
	}
	if got, want := binary.LittleEndian.Uint32(reply[8:12]), binary.LittleEndian.Uint32(msg[4:8]); got != want {
		t.Errorf("responseTo %d, want %d", got, want)
	}
	doc, _, err := commandDoc(reply)
	if err != nil {
		t.Fatal(err)
	}
	var m bson.M
	if err := bson.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

func TestFrontRefusesWithoutForwarding(t *testing.T) {
	b := startFakeBackend(t, func(int32) time.Duration { return 0 })
	c := startFront(t, b.path, time.Second)()
	compressed := buildOpMsg(t, 0, bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "d"}})
	binary.LittleEndian.PutUint32(compressed[12:16], opCompressed)
	for _, msg := range [][]byte{compressed, buildOpMsg(t, 0, bson.D{{Key: "bulkWrite", Value: int32(1)}, {Key: "$db", Value: "admin"}})} {
		reply, err := roundTrip(t, c, msg)
		if err != nil || reply["ok"] != 0.0 || reply["errmsg"] == "" {
			t.Errorf("refusal: %v %v", reply, err)
		}
	}
	// The connection still works, and only this ping reached the backend.
	if reply, err := roundTrip(t, c, buildOpMsg(t, 0, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})); err != nil || reply["ok"] != 1.0 {
		t.Errorf("ping after refusals: %v %v", reply, err)
	}
	if n := b.count.Load(); n != 1 {
		t.Errorf("backend received %d messages, want 1", n)
	}
}

func TestFrontMakesUnacknowledgedWritesWaitForTheBackend(t *testing.T) {
	b := startFakeBackend(t, func(int32) time.Duration { return 0 })
	c := startFront(t, b.path, time.Second)()
	w := buildOpMsg(t, moreToCome|checksumPresent, bson.D{{Key: "delete", Value: "c"}, {Key: "$db", Value: "d"}})
	w = append(w, 1, 2, 3, 4) // checksum
	binary.LittleEndian.PutUint32(w[0:4], uint32(len(w)))
	if _, err := c.Write(w); err != nil {
		t.Fatal(err)
	}
	got := <-b.received
	if flags := binary.LittleEndian.Uint32(got[16:20]); flags&(moreToCome|checksumPresent) != 0 || len(got) != len(w)-4 {
		t.Errorf("backend got flags %b and %d bytes", flags, len(got))
	}
	// The swallowed reply does not reach the client: the next reply is the ping's.
	if reply, err := roundTrip(t, c, buildOpMsg(t, 0, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})); err != nil || reply["ok"] != 1.0 {
		t.Errorf("ping after an unacknowledged write: %v %v", reply, err)
	}
}

func TestAStuckBackendFailsClosedWithDeadlines(t *testing.T) {
	// The first message is answered only when unblock is closed; the others at once.
	unblock := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-unblock:
		default:
			close(unblock)
		}
	})
	b := startFakeBackend(t, func(n int32) time.Duration {
		if n == 1 {
			<-unblock
		}
		return 0
	})
	timeout := 300 * time.Millisecond
	dial := startFront(t, b.path, timeout)
	insert := buildOpMsg(t, 0, bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "d"}})

	stuck := dial()
	start := time.Now()
	if _, err := stuck.Write(insert); err != nil {
		t.Fatal(err)
	}
	<-b.received // the stuck write holds the lock of d.c now

	// Another write of d.c waits for the lock no longer than the deadline, is refused, and is never
	// forwarded: the stuck one may still be applied, so nothing runs beside it.
	other := dial()
	reply, err := roundTrip(t, other, insert)
	if err != nil || reply["ok"] != 0.0 || reply["code"] != int32(50) {
		t.Fatalf("write behind the stuck one: %v %v", reply, err)
	}
	if waited := time.Since(start); waited < timeout/2 || waited > 5*time.Second {
		t.Errorf("refused after %s; want about the deadline", waited)
	}
	// The stuck client gets an error at its deadline.
	if reply, err := readReply(t, stuck); err != nil || reply["ok"] != 0.0 || reply["code"] != int32(50) {
		t.Errorf("the stuck write: %v %v", reply, err)
	}
	// Other collections are not held up.
	if reply, err := roundTrip(t, other, buildOpMsg(t, 0, bson.D{{Key: "insert", Value: "e"}, {Key: "$db", Value: "d"}})); err != nil || reply["ok"] != 1.0 {
		t.Errorf("write of another collection: %v %v", reply, err)
	}
	if n := b.count.Load(); n != 2 {
		t.Errorf("backend received %d messages, want 2 (the stuck write and the other collection's)", n)
	}

	// Once the backend has answered the stuck command, d.c is writable again, on the refused
	// client's still open connection.
	close(unblock)
	deadline := time.Now().Add(5 * time.Second)
	for {
		reply, err := roundTrip(t, other, insert)
		if err != nil {
			t.Fatal(err)
		}
		if reply["ok"] == 1.0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("d.c still refused after the backend answered: %v", reply)
		}
	}
}

func readReply(t *testing.T, c net.Conn) (bson.M, error) {
	t.Helper()
	reply, err := readMessage(c)
	if err != nil {
		return nil, err
	}
	doc, _, err := commandDoc(reply)
	if err != nil {
		t.Fatal(err)
	}
	var m bson.M
	return m, bson.Unmarshal(doc, &m)
}

func TestExclusiveCommandsWaitWithADeadline(t *testing.T) {
	// A write that never answers: a drop waits for it no longer than the deadline, then is refused
	// without reaching the backend, and writes of other collections queued behind the drop go on.
	unblock := make(chan struct{})
	t.Cleanup(func() { close(unblock) })
	b := startFakeBackend(t, func(n int32) time.Duration {
		if n == 1 {
			<-unblock
		}
		return 0
	})
	dial := startFront(t, b.path, 300*time.Millisecond)
	if _, err := dial().Write(buildOpMsg(t, 0, bson.D{{Key: "update", Value: "c"}, {Key: "$db", Value: "d"}})); err != nil {
		t.Fatal(err)
	}
	<-b.received
	reply, err := roundTrip(t, dial(), buildOpMsg(t, 0, bson.D{{Key: "drop", Value: "other"}, {Key: "$db", Value: "d"}}))
	if err != nil || reply["ok"] != 0.0 {
		t.Fatalf("drop beside a stuck write: %v %v", reply, err)
	}
	if reply, err := roundTrip(t, dial(), buildOpMsg(t, 0, bson.D{{Key: "update", Value: "e"}, {Key: "$db", Value: "d"}})); err != nil || reply["ok"] != 1.0 {
		t.Errorf("write of another collection after the refused drop: %v %v", reply, err)
	}
	if n := b.count.Load(); n != 2 {
		t.Errorf("backend received %d messages, want 2", n)
	}
}

func TestExclusiveCommandsWaitForWrites(t *testing.T) {
	// Writes take 200 ms at the backend; a drop issued meanwhile must start after them.
	b := startFakeBackend(t, func(n int32) time.Duration { return 200 * time.Millisecond })
	dial := startFront(t, b.path, 5*time.Second)
	w := dial()
	if _, err := w.Write(buildOpMsg(t, 0, bson.D{{Key: "update", Value: "c"}, {Key: "$db", Value: "d"}})); err != nil {
		t.Fatal(err)
	}
	<-b.received
	start := time.Now()
	if _, err := roundTrip(t, dial(), buildOpMsg(t, 0, bson.D{{Key: "drop", Value: "other"}, {Key: "$db", Value: "d"}})); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Errorf("drop finished after %s: it did not wait for the write in flight", waited)
	}
}
