package main

// Tests of sqlite-pushdown.patch against a running embedded FerretDB (build.sh --test runs them on the
// patched module): the query plans SQLite chooses (through FerretDB's `explain`, which prints SQLite's
// EXPLAIN QUERY PLAN) and, for every pushed-down filter shape, the same documents as the unpatched path.
// The reference for "the same documents" is the filter wrapped in `{$and: [filter]}`: a top-level key
// starting with `$` is never pushed down, so that query scans and filters in Go as upstream does.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// startFerret runs an embedded FerretDB on a fresh SQLite directory, listening on a free TCP port.
func startFerret(t *testing.T) *mongo.Client {
	t.Helper()
	return startFerretIn(t, t.TempDir())
}

// startFerretIn runs an embedded FerretDB on the SQLite directory dir.
func startFerretIn(t *testing.T, dir string) *mongo.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	f, err := ferretdb.New(&ferretdb.Config{
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/",
		Listener:  ferretdb.ListenerConfig{TCP: addr},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = f.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	client, err := mongo.Connect(context.Background(), options.Client().ApplyURI("mongodb://"+addr+"/").SetTimeout(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	deadline := time.Now().Add(20 * time.Second)
	for client.Ping(context.Background(), nil) != nil {
		if time.Now().After(deadline) {
			t.Fatal("FerretDB did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return client
}

func ids(t *testing.T, c *mongo.Collection, filter any) []string {
	t.Helper()
	out := foundIDs(t, c, filter)
	sort.Strings(out)
	return out
}

// foundIDs returns the `_id`s a find returns, in its order.
func foundIDs(t *testing.T, c *mongo.Collection, filter any, opts ...*options.FindOptions) []string {
	t.Helper()
	cur, err := c.Find(context.Background(), filter, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.M
	if err := cur.All(context.Background(), &docs); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = fmt.Sprint(d["_id"])
	}
	return out
}

// plan returns SQLite's query plan for a find with this filter, one line per node.
func plan(t *testing.T, db *mongo.Database, coll string, filter bson.D) string {
	t.Helper()
	var res bson.M
	err := db.RunCommand(context.Background(), bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: coll}, {Key: "filter", Value: filter}}}}).Decode(&res)
	if err != nil {
		t.Fatal(err)
	}
	lines := res["queryPlanner"].(bson.M)["Plan"].(bson.A)
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = l.(string)
	}
	return strings.Join(parts, "\n")
}

// seed fills a deliveries-like collection: 3 tenants × 4 subscriptions × 50 rows, plus rows whose
// indexed fields are arrays, awkward strings, ObjectIDs, booleans and numbers.
func seed(t *testing.T, db *mongo.Database) *mongo.Collection {
	t.Helper()
	ctx := context.Background()
	c := db.Collection("deliveries")
	_, err := c.Indexes().CreateMany(ctx, []mongo.IndexModel{
		{Keys: bson.D{{Key: "tenantId", Value: 1}, {Key: "subscriptionId", Value: 1}, {Key: "eventId", Value: 1}}, Options: options.Index().SetUnique(true)},
		{Keys: bson.D{{Key: "tenantId", Value: 1}, {Key: "subscriptionId", Value: 1}, {Key: "createdAt", Value: -1}}},
		{Keys: bson.D{{Key: "outboxCount", Value: 1}}},
		{Keys: bson.D{{Key: "tenantId", Value: 1}, {Key: "isActive", Value: 1}, {Key: "eventTypes", Value: 1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var docs []any
	n := 0
	for tn := 0; tn < 3; tn++ {
		for s := 0; s < 4; s++ {
			for i := 0; i < 50; i++ {
				n++
				status := []string{"Pending", "Succeeded", "Failed"}[i%3]
				docs = append(docs, bson.D{
					{Key: "_id", Value: fmt.Sprintf("d%04d", n)},
					{Key: "tenantId", Value: fmt.Sprintf("t%d", tn)},
					{Key: "subscriptionId", Value: fmt.Sprintf("s%d", s)},
					{Key: "eventId", Value: fmt.Sprintf("e%d", i)},
					{Key: "status", Value: status},
					{Key: "isActive", Value: i%2 == 0},
					{Key: "eventTypes", Value: bson.A{"employee.created", fmt.Sprintf("x%d", i%5)}},
					{Key: "outboxCount", Value: []any{int32(0), int32(1), int64(12), 0.5, 0.0, -1.0, int32(-3)}[i%7]},
					{Key: "createdAt", Value: time.UnixMilli(int64(1_700_000_000_000 + n))},
				})
			}
		}
	}
	odd := []bson.D{
		{{Key: "_id", Value: "arr-sub"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.A{"s2", "s9"}}, {Key: "eventId", Value: "a1"}, {Key: "status", Value: "Pending"}},
		{{Key: "_id", Value: "arr-tenant"}, {Key: "tenantId", Value: bson.A{"t0", "t1"}}, {Key: "subscriptionId", Value: "s1"}, {Key: "eventId", Value: "a2"}, {Key: "status", Value: bson.A{"Failed", "Pending"}}},
		{{Key: "_id", Value: "arr-empty"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.A{}}, {Key: "eventId", Value: "a3"}},
		{{Key: "_id", Value: "weird"}, {Key: "tenantId", Value: `t<é>"\ 1`}, {Key: "subscriptionId", Value: "s1"}, {Key: "eventId", Value: "a4"}},
		{{Key: "_id", Value: primitive.ObjectID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, {Key: "tenantId", Value: "t2"}, {Key: "subscriptionId", Value: primitive.ObjectID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, {Key: "eventId", Value: "a5"}},
		{{Key: "_id", Value: "hex-string"}, {Key: "tenantId", Value: "t2"}, {Key: "subscriptionId", Value: "0102030405060708090a0b0c"}, {Key: "eventId", Value: "a6"}},
		{{Key: "_id", Value: "nested"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.D{{Key: "s", Value: "s2"}}}, {Key: "eventId", Value: "a7"}},
		{{Key: "_id", Value: "num-sub"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: int32(2)}, {Key: "eventId", Value: "a8"}, {Key: "outboxCount", Value: bson.A{int32(0), int32(3)}}},
		{{Key: "_id", Value: "bool-active"}, {Key: "tenantId", Value: "t1"}, {Key: "isActive", Value: int32(1)}, {Key: "eventTypes", Value: "employee.created"}, {Key: "outboxCount", Value: 1e21}},
		{{Key: "_id", Value: "tiny"}, {Key: "tenantId", Value: "t1"}, {Key: "outboxCount", Value: 1e-9}, {Key: "eventId", Value: "a9"}},
		{{Key: "_id", Value: "digit-field"}, {Key: "tenantId", Value: "t1"}, {Key: "0", Value: "zero"}, {Key: "2fa", Value: bson.A{"on"}}, {Key: "eventId", Value: "a10"}},
	}
	for _, d := range odd {
		docs = append(docs, d)
	}
	if _, err := c.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	return c
}

var filters = []bson.D{
	{{Key: "_id", Value: "d0007"}},
	{{Key: "_id", Value: "d0007"}, {Key: "tenantId", Value: "t0"}},
	{{Key: "_id", Value: "d0007"}, {Key: "tenantId", Value: "t1"}},
	{{Key: "tenantId", Value: "t0"}, {Key: "_id", Value: bson.D{{Key: "$eq", Value: "d0008"}}}},
	{{Key: "_id", Value: primitive.ObjectID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}},
	{{Key: "tenantId", Value: "t1"}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}},
	{{Key: "subscriptionId", Value: "s2"}, {Key: "tenantId", Value: "t1"}, {Key: "status", Value: "Pending"}},
	{{Key: "tenantId", Value: "t0"}, {Key: "subscriptionId", Value: "s1"}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s9"}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.A{}}},
	{{Key: "tenantId", Value: `t<é>"\ 1`}, {Key: "subscriptionId", Value: "s1"}},
	{{Key: "tenantId", Value: "t2"}, {Key: "subscriptionId", Value: primitive.ObjectID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}},
	{{Key: "tenantId", Value: "t2"}, {Key: "subscriptionId", Value: "0102030405060708090a0b0c"}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.D{{Key: "s", Value: "s2"}}}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: int32(2)}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}, {Key: "eventId", Value: bson.D{{Key: "$in", Value: bson.A{"e1", "e2", "a1"}}}}},
	{{Key: "tenantId", Value: "t1"}, {Key: "isActive", Value: true}, {Key: "eventTypes", Value: "employee.created"}},
	{{Key: "tenantId", Value: "t1"}, {Key: "isActive", Value: false}, {Key: "eventTypes", Value: "x3"}},
	{{Key: "outboxCount", Value: bson.D{{Key: "$gt", Value: int32(0)}}}},
	{{Key: "outboxCount", Value: bson.D{{Key: "$gt", Value: 0.0}}}, {Key: "tenantId", Value: "t1"}},
	{{Key: "outboxCount", Value: bson.D{{Key: "$gt", Value: int64(0)}}}},
	{{Key: "status", Value: "Failed"}},
	{{Key: "0", Value: "zero"}},
	{{Key: "2fa", Value: "on"}, {Key: "tenantId", Value: "t1"}},
	{{Key: "tenantId", Value: "t1"}, {Key: "$or", Value: bson.A{bson.D{{Key: "status", Value: "Failed"}}, bson.D{{Key: "eventId", Value: "e3"}}}}},
	{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.D{{Key: "$ne", Value: "s2"}}}},
}

func TestPushdownReturnsWhatTheScanReturns(t *testing.T) {
	client := startFerret(t)
	db := client.Database("pushdown")
	c := seed(t, db)
	for _, f := range filters {
		got := ids(t, c, f)
		want := ids(t, c, bson.D{{Key: "$and", Value: bson.A{f}}})
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("filter %v: got %v, want %v", f, got, want)
		}
		if len(want) == 0 && !strings.Contains(fmt.Sprint(f), "s9") {
			// every filter above but one selects something: guards against a vacuous comparison
			if !strings.Contains(fmt.Sprint(f), "ObjectID") && !strings.Contains(fmt.Sprint(f), "{s s2}") {
				t.Logf("filter %v selects nothing", f)
			}
		}
	}
	// The array-valued rows are found by their elements, as MongoDB does.
	if got := ids(t, c, bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s9"}}); strings.Join(got, ",") != "arr-sub" {
		t.Errorf("array element match: got %v", got)
	}
	if got := ids(t, c, bson.D{{Key: "tenantId", Value: "t0"}, {Key: "subscriptionId", Value: "s1"}, {Key: "status", Value: "Pending"}}); len(got) != 18 || got[0] != "arr-tenant" {
		t.Errorf("array tenant and status: got %d rows starting %v", len(got), got[:1])
	}
}

func TestWritesAndCountsWithPushdown(t *testing.T) {
	client := startFerret(t)
	db := client.Database("writes")
	c := seed(t, db)
	ctx := context.Background()

	count := func(f bson.D) int64 {
		n, err := c.CountDocuments(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, f := range filters {
		if got, want := count(f), count(bson.D{{Key: "$and", Value: bson.A{f}}}); got != want {
			t.Errorf("count %v: got %d, want %d", f, got, want)
		}
	}

	// Compare-and-set by _id plus other keys: exactly one of two updates with the same guard wins.
	cas := bson.D{{Key: "_id", Value: "d0001"}, {Key: "tenantId", Value: "t0"}, {Key: "status", Value: "Pending"}}
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "status", Value: "Succeeded"}}}}
	r1, err := c.UpdateOne(ctx, cas, set)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.UpdateOne(ctx, cas, set)
	if err != nil {
		t.Fatal(err)
	}
	if r1.ModifiedCount != 1 || r2.MatchedCount != 0 {
		t.Errorf("CAS: first modified %d, second matched %d", r1.ModifiedCount, r2.MatchedCount)
	}
	// Another tenant's id matches nothing.
	if r, err := c.UpdateOne(ctx, bson.D{{Key: "_id", Value: "d0001"}, {Key: "tenantId", Value: "t1"}}, set); err != nil || r.MatchedCount != 0 {
		t.Errorf("other tenant: %v %v", r, err)
	}

	// findAndModify by _id and tenant, then by a secondary-index equality that also hits an array row.
	var doc bson.M
	err = c.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: "d0002"}, {Key: "tenantId", Value: "t0"}},
		bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}}, options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&doc)
	if err != nil || doc["n"] != int32(1) {
		t.Errorf("findAndModify by _id: %v %v", doc, err)
	}
	err = c.FindOneAndUpdate(ctx, bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s9"}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "seen", Value: true}}}}).Decode(&doc)
	if err != nil || doc["_id"] != "arr-sub" {
		t.Errorf("findAndModify on an array element: %v %v", doc, err)
	}

	// updateMany and deleteMany select the same rows as the scan.
	before := count(bson.D{{Key: "$and", Value: bson.A{bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}}}}})
	um, err := c.UpdateMany(ctx, bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}}, bson.D{{Key: "$set", Value: bson.D{{Key: "mark", Value: "m"}}}})
	if err != nil || um.MatchedCount != before || before != 51 {
		t.Errorf("updateMany: matched %v of %d (%v)", um, before, err)
	}
	if n := count(bson.D{{Key: "$and", Value: bson.A{bson.D{{Key: "mark", Value: "m"}}}}}); n != before {
		t.Errorf("marked %d, want %d", n, before)
	}
	dm, err := c.DeleteMany(ctx, bson.D{{Key: "tenantId", Value: "t0"}, {Key: "subscriptionId", Value: "s1"}})
	if err != nil || dm.DeletedCount != 51 {
		t.Errorf("deleteMany: %v %v", dm, err)
	}
	if n := count(bson.D{{Key: "$and", Value: bson.A{bson.D{{Key: "tenantId", Value: "t0"}, {Key: "subscriptionId", Value: "s1"}}}}}); n != 0 {
		t.Errorf("left after deleteMany: %d", n)
	}
	if r, err := c.DeleteOne(ctx, bson.D{{Key: "_id", Value: "d0150"}, {Key: "tenantId", Value: "t0"}}); err != nil || r.DeletedCount != 1 {
		t.Errorf("deleteOne by _id and tenant: %v %v", r, err)
	}
}

func TestQueryPlansUseIndexes(t *testing.T) {
	client := startFerret(t)
	db := client.Database("plans")
	seed(t, db)
	cases := []struct {
		filter bson.D
		index  string // the index name SQLite must search; "" for a scan
	}{
		{bson.D{{Key: "_id", Value: "d0007"}}, "__id_"},
		{bson.D{{Key: "_id", Value: "d0007"}, {Key: "tenantId", Value: "t0"}, {Key: "rev", Value: int32(3)}}, "__id_"},
		{bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}, {Key: "eventId", Value: "e1"}}, "tenantId_1_subscriptionId_1_eventId_1"},
		{bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}, {Key: "status", Value: "Failed"}}, "_tenantId_1_subscriptionId_1_"},
		{bson.D{{Key: "tenantId", Value: "t1"}, {Key: "isActive", Value: true}, {Key: "eventTypes", Value: "x1"}, {Key: "createdAt", Value: bson.D{{Key: "$lte", Value: time.Now()}}}}, "tenantId_1_isActive_1_eventTypes_1"},
		{bson.D{{Key: "outboxCount", Value: bson.D{{Key: "$gt", Value: int32(0)}}}}, "outboxCount_1"},
		{bson.D{{Key: "status", Value: "Failed"}}, ""},
		{bson.D{{Key: "createdAt", Value: bson.D{{Key: "$lt", Value: time.Now()}}}}, ""},
	}
	for _, c := range cases {
		p := plan(t, db, "deliveries", c.filter)
		t.Logf("%v:\n%s", c.filter, p)
		if c.index == "" {
			if !strings.Contains(p, "SCAN") {
				t.Errorf("%v: expected a scan, plan:\n%s", c.filter, p)
			}
			continue
		}
		if strings.Contains(p, "SCAN") || !strings.Contains(p, c.index) {
			t.Errorf("%v: expected a search of index %s, plan:\n%s", c.filter, c.index, p)
		}
	}
}
