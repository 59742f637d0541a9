package main

// Tests of the sort and count pushdown of sqlite-pushdown.patch (decision 0090), against a running
// embedded FerretDB (build.sh --test). The reference for "the same result" is FerretDB's own Go path:
// a find without a limit is never offered to the backend's ORDER BY (it is sorted in Go, as upstream
// does), so `find(f).sort(s)` sliced by skip/limit is what `find(f).sort(s).skip(k).limit(l)` must
// return; a count's reference is its filter wrapped in `{$and: [f]}` (never pushed down).

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
	_ "modernc.org/sqlite"
)

// mixed is one tenant's subscription whose `k` holds every type the backend orders (and duplicates of
// each, for the `_id` tie-breaks), plus rows of another subscription and another tenant.
func seedMixed(t *testing.T, c *mongo.Collection) {
	t.Helper()
	ctx := context.Background()
	_, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "tenantId", Value: 1}, {Key: "subscriptionId", Value: 1}, {Key: "createdAt", Value: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	oid := func(b byte) primitive.ObjectID { return primitive.ObjectID{b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, b} }
	values := []any{
		"b", "a", "", "B", "é", "e\u0301", "z\"q", `back\slash`, "\u2028", "日本", "a", "0102030405060708090a0b0c",
		int32(3), int32(-7), int64(1) << 60, int64(-(1 << 60)), int64(3), 2.5, -0.0, 0.0, 1e21, -1e-9, float64(math.MaxInt64), int32(0), 1e20,
		time.UnixMilli(1_700_000_000_123), time.UnixMilli(-5), time.UnixMilli(3), time.UnixMilli(1_700_000_000_123),
		nil, primitive.Null{}, true, false, true,
		oid(1), oid(255), oid(16), primitive.ObjectID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
	}
	var docs []any
	for i, v := range values {
		d := bson.D{
			{Key: "_id", Value: fmt.Sprintf("m%03d", (i*37)%101)},
			{Key: "tenantId", Value: "t1"},
			{Key: "subscriptionId", Value: "s1"},
			{Key: "createdAt", Value: time.UnixMilli(int64(1_700_000_000_000 + (i*7)%11))},
			{Key: "g", Value: int32(i % 3)},
		}
		if v != nil { // nil: the field is missing
			d = append(d, bson.E{Key: "k", Value: v})
		}
		docs = append(docs, d)
	}
	for i := 0; i < 20; i++ {
		docs = append(docs,
			bson.D{{Key: "_id", Value: fmt.Sprintf("o%03d", i)}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}, {Key: "k", Value: int32(i)}, {Key: "createdAt", Value: time.UnixMilli(int64(i))}},
			bson.D{{Key: "_id", Value: fmt.Sprintf("p%03d", i)}, {Key: "tenantId", Value: "t2"}, {Key: "subscriptionId", Value: "s1"}, {Key: "k", Value: "x"}, {Key: "createdAt", Value: time.UnixMilli(int64(i))}},
		)
	}
	if _, err := c.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
}

func findIDs(t *testing.T, c *mongo.Collection, filter, sort bson.D, skip, limit int64) []string {
	t.Helper()
	o := options.Find().SetSort(sort)
	if skip > 0 {
		o.SetSkip(skip)
	}
	if limit > 0 {
		o.SetLimit(limit)
	}
	return foundIDs(t, c, filter, o)
}

// window is what skip and limit leave of the reference.
func window(all []string, skip, limit int64) []string {
	if skip >= int64(len(all)) {
		return []string{}
	}
	all = all[skip:]
	if limit < int64(len(all)) {
		all = all[:limit]
	}
	return all
}

func explainFind(t *testing.T, db *mongo.Database, coll string, filter, sort bson.D, limit int64) bson.M {
	t.Helper()
	var res bson.M
	cmd := bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: coll}, {Key: "filter", Value: filter}, {Key: "sort", Value: sort}, {Key: "limit", Value: limit}}}}
	if err := db.RunCommand(context.Background(), cmd).Decode(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

var sorts = []bson.D{
	{{Key: "k", Value: 1}, {Key: "_id", Value: 1}},
	{{Key: "k", Value: -1}, {Key: "_id", Value: 1}},
	{{Key: "k", Value: -1}, {Key: "_id", Value: -1}},
	{{Key: "createdAt", Value: -1}, {Key: "_id", Value: 1}},
	{{Key: "g", Value: 1}, {Key: "k", Value: -1}, {Key: "_id", Value: 1}},
	{{Key: "missing", Value: 1}, {Key: "_id", Value: -1}},
	{{Key: "_id", Value: 1}},
}

func TestPushedSortReturnsWhatTheGoSortReturns(t *testing.T) {
	client := startFerret(t)
	db := client.Database("sortpush")
	c := db.Collection("rows")
	seedMixed(t, c)

	filters := []bson.D{
		{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}},
		{{Key: "tenantId", Value: "t1"}},
		{},
		{{Key: "tenantId", Value: "t1"}, {Key: "g", Value: int32(1)}},
	}
	for _, f := range filters {
		for _, s := range sorts {
			all := findIDs(t, c, f, s, 0, 0)
			if len(all) < 10 {
				t.Fatalf("%v: only %d rows", f, len(all))
			}
			for _, sl := range [][2]int64{{0, 20}, {0, 1}, {5, 7}, {int64(len(all)) - 3, 20}, {int64(len(all)), 5}, {1000, 20}} {
				got := findIDs(t, c, f, s, sl[0], sl[1])
				want := window(all, sl[0], sl[1])
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("filter %v sort %v skip %d limit %d:\n got %v\nwant %v", f, s, sl[0], sl[1], got, want)
				}
			}
		}
	}

	// The order is MongoDB's: null and missing, numbers, strings, ObjectIDs, bools, dates; strings by
	// their UTF-8 bytes; numbers by value across int32, int64 and double.
	cur, err := c.Find(context.Background(), bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}},
		options.Find().SetSort(bson.D{{Key: "k", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(100))
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.M
	if err := cur.All(context.Background(), &docs); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range docs {
		var kind string
		switch v := d["k"].(type) {
		case nil:
			kind = "null"
		case int32, int64, float64:
			kind = "number"
		case string:
			kind = "string:" + v
		case primitive.ObjectID:
			kind = "oid"
		case bool:
			kind = fmt.Sprint(v)
		case primitive.DateTime:
			kind = "date"
		}
		if len(kinds) == 0 || kinds[len(kinds)-1] != kind {
			kinds = append(kinds, kind)
		}
	}
	want := "null number string: string:0102030405060708090a0b0c string:B string:a string:b string:back\\slash string:e\u0301 string:z\"q string:é string:\u2028 string:日本 oid false true date"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("type order:\n got %s\nwant %s", got, want)
	}
	var nums []string
	for _, d := range docs {
		switch d["k"].(type) {
		case int32, int64, float64:
			nums = append(nums, fmt.Sprint(d["k"]))
		}
	}
	if got := strings.Join(nums, " "); got != "-1152921504606846976 -7 -1e-09 0 0 0 2.5 3 3 1152921504606846976 9.223372036854776e+18 1e+20 1e+21" {
		t.Errorf("numbers: %s", got)
	}
}

// Rows whose sort value is an array or a sub-document sort by MongoDB's rules for those (smallest or
// largest element; fields), which the backend does not order: the whole result is sorted in Go.
func TestPushedSortFallsBackForArraysAndDocuments(t *testing.T) {
	client := startFerret(t)
	db := client.Database("sortpush")
	c := db.Collection("rows")
	seedMixed(t, c)
	extra := []any{
		bson.D{{Key: "_id", Value: "arr1"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}, {Key: "k", Value: bson.A{int32(100), "a"}}},
		bson.D{{Key: "_id", Value: "arr2"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}, {Key: "k", Value: bson.A{}}},
		bson.D{{Key: "_id", Value: "doc1"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: bson.A{"s1", "s3"}}, {Key: "k", Value: bson.D{{Key: "x", Value: 1}}}},
		bson.D{{Key: "_id", Value: "bin1"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}, {Key: "k", Value: primitive.Binary{Data: []byte{1}}}},
	}
	// Strings that SQLite's `->>` would cut at a NUL are sorted in Go too.
	for i, v := range []string{"x\\u0000", "x\x00b", "x", "x\x00a"} {
		extra = append(extra, bson.D{{Key: "_id", Value: fmt.Sprintf("nul%d", i)}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}, {Key: "k", Value: v}})
	}
	for _, d := range extra {
		if _, err := c.InsertOne(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	f := bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}}
	for _, s := range sorts {
		all := findIDs(t, c, f, s, 0, 0)
		for _, sl := range [][2]int64{{0, 20}, {0, 3}, {10, 10}, {1000, 1}} {
			got := findIDs(t, c, f, s, sl[0], sl[1])
			if want := window(all, sl[0], sl[1]); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("sort %v skip %d limit %d:\n got %v\nwant %v", s, sl[0], sl[1], got, want)
			}
		}
	}
	if got := findIDs(t, c, f, bson.D{{Key: "k", Value: 1}, {Key: "_id", Value: 1}}, 0, 2); strings.Join(got, ",") != "arr2,m063" {
		t.Errorf("an empty array sorts first, then missing and null: %v", got)
	}
}

// The pushed plan is used: SQLite searches the index for the filter and sorts the rows itself (it scans
// only the materialized sort keys of the rows it found).
func TestPushedSortPlan(t *testing.T) {
	client := startFerret(t)
	db := client.Database("sortpush")
	c := db.Collection("rows")
	seedMixed(t, c)
	f := bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}}
	s := bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: 1}}

	res := explainFind(t, db, "rows", f, s, 20)
	plan := fmt.Sprint(res["queryPlanner"])
	if res["sortPushdown"] != true || !strings.Contains(plan, "USE TEMP B-TREE FOR ORDER BY") || !strings.Contains(plan, "SEARCH rows_") || strings.Contains(plan, "SCAN rows_") {
		t.Errorf("expected an index search sorted by SQLite: sortPushdown=%v\n%s", res["sortPushdown"], plan)
	}
	// Without a limit the rows are sorted in Go, as upstream does; so are dotted sort keys.
	if res := explainFind(t, db, "rows", f, s, 0); res["sortPushdown"] != false {
		t.Errorf("no limit: sortPushdown=%v", res["sortPushdown"])
	}
	if res := explainFind(t, db, "rows", f, bson.D{{Key: "a.b", Value: 1}}, 5); res["sortPushdown"] != false {
		t.Errorf("dotted key: sortPushdown=%v", res["sortPushdown"])
	}
}

// corrupt writes, straight into the SQLite table, a row that matches {tenantId: t1, subscriptionId: s1}
// but that FerretDB cannot decode (its schema says `k` is an int32, its value is a string), whose `k`
// SQLite orders after every number. Any query that decodes it fails.
func corrupt(t *testing.T, dir, dbName, coll string) {
	t.Helper()
	sdb, err := sql.Open("sqlite", "file:"+filepath.Join(dir, dbName+".sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var table string
	if err := sdb.QueryRow(`SELECT table_name FROM _ferretdb_collections WHERE name = ?`, coll).Scan(&table); err != nil {
		t.Fatal(err)
	}
	row := `{"$s":{"p":{"_id":{"t":"string"},"tenantId":{"t":"string"},"subscriptionId":{"t":"string"},"k":{"t":"int"}},` +
		`"$k":["_id","tenantId","subscriptionId","k"]},"_id":"zz-corrupt","tenantId":"t1","subscriptionId":"s1","k":"not a number"}`
	if _, err := sdb.Exec(fmt.Sprintf(`INSERT INTO %q (_ferretdb_sjson) VALUES (?)`, table), row); err != nil {
		t.Fatal(err)
	}
}

// A page reads only the rows up to skip+limit, and a count reads none of the rows it counts in SQL:
// both still answer with an undecodable row among the matching ones (beyond the page), where the
// upstream path, which decodes every matching row, fails.
func TestPagesAndCountsDoNotDecodeEveryRow(t *testing.T) {
	dir := t.TempDir()
	client := startFerretIn(t, dir)
	db := client.Database("sortpush")
	c := db.Collection("rows")
	ctx := context.Background()
	var docs []any
	for i := 0; i < 50; i++ {
		docs = append(docs, bson.D{{Key: "_id", Value: fmt.Sprintf("r%02d", i)}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}, {Key: "k", Value: int32(i)}})
	}
	if _, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "tenantId", Value: 1}, {Key: "subscriptionId", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	corrupt(t, dir, "sortpush", "rows")
	f := bson.D{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s1"}}

	if got := findIDs(t, c, f, bson.D{{Key: "k", Value: 1}, {Key: "_id", Value: 1}}, 10, 5); strings.Join(got, ",") != "r10,r11,r12,r13,r14" {
		t.Errorf("page: %v", got)
	}
	if n, err := c.CountDocuments(ctx, f); err != nil || n != 51 {
		t.Errorf("countDocuments: %d %v", n, err)
	}
	var res bson.M
	if err := db.RunCommand(ctx, bson.D{{Key: "count", Value: "rows"}, {Key: "query", Value: f}}).Decode(&res); err != nil || res["n"] != int32(51) {
		t.Errorf("count: %v %v", res, err)
	}
	// The reference paths read the row and fail: the two above did not read it.
	if cur, err := c.Find(ctx, f, options.Find().SetSort(bson.D{{Key: "k", Value: 1}})); err == nil {
		var all []bson.M
		if err := cur.All(ctx, &all); err == nil {
			t.Errorf("the unlimited find decoded the corrupt row without an error")
		}
	}
	if _, err := c.CountDocuments(ctx, bson.D{{Key: "$and", Value: bson.A{f}}}); err == nil {
		t.Errorf("the $and count decoded the corrupt row without an error")
	}
}

// Counts over filters the backend evaluates exactly equal the Go path's, whatever the rows hold:
// arrays (matched by an element), values of another type with the same JSON text (an ObjectID and its
// hex string, a regex and its pattern), bools, a missing collection, the empty filter.
func TestExactCountsEqualTheGoPath(t *testing.T) {
	client := startFerret(t)
	db := client.Database("counts")
	c := seed(t, db)
	ctx := context.Background()
	odd := []any{
		bson.D{{Key: "_id", Value: "regex"}, {Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: primitive.Regex{Pattern: "s2"}}},
		bson.D{{Key: "_id", Value: "bool-arr"}, {Key: "tenantId", Value: "t1"}, {Key: "isActive", Value: bson.A{false, true}}},
	}
	if _, err := c.InsertMany(ctx, odd); err != nil {
		t.Fatal(err)
	}
	extra := []bson.D{
		{},
		{{Key: "isActive", Value: true}},
		{{Key: "isActive", Value: bson.D{{Key: "$eq", Value: false}}}, {Key: "tenantId", Value: "t1"}},
		{{Key: "subscriptionId", Value: "s2"}},
		{{Key: "tenantId", Value: "t1"}, {Key: "tenantId", Value: "t2"}},
	}
	for _, f := range append(append([]bson.D{}, filters...), extra...) {
		want, err := c.CountDocuments(ctx, bson.D{{Key: "$and", Value: bson.A{f}}})
		if len(f) == 0 {
			want, err = c.CountDocuments(ctx, bson.D{{Key: "$and", Value: bson.A{bson.D{{Key: "_id", Value: bson.D{{Key: "$exists", Value: true}}}}}}})
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.CountDocuments(ctx, f)
		if err != nil || got != want {
			t.Errorf("countDocuments %v: got %d (%v), want %d", f, got, err, want)
		}
		var res bson.M
		if err := db.RunCommand(ctx, bson.D{{Key: "count", Value: "deliveries"}, {Key: "query", Value: f}}).Decode(&res); err != nil || fmt.Sprint(res["n"]) != fmt.Sprint(want) {
			t.Errorf("count %v: got %v (%v), want %d", f, res["n"], err, want)
		}
	}
	// The $group's own output, for the count and for nothing.
	for _, f := range []bson.D{{{Key: "tenantId", Value: "t1"}, {Key: "subscriptionId", Value: "s2"}}, {{Key: "tenantId", Value: "none"}}} {
		agg := func(match bson.D) []bson.M {
			cur, err := c.Aggregate(ctx, bson.A{bson.D{{Key: "$match", Value: match}}, bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: int32(1)}, {Key: "n", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}}}})
			if err != nil {
				t.Fatal(err)
			}
			var out []bson.M
			if err := cur.All(ctx, &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got, want := agg(f), agg(bson.D{{Key: "$and", Value: bson.A{f}}}); fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Errorf("aggregate %v: got %#v, want %#v", f, got, want)
		}
	}
	if n, err := db.Collection("nothing").CountDocuments(ctx, bson.D{{Key: "tenantId", Value: "t1"}}); err != nil || n != 0 {
		t.Errorf("missing collection: %d %v", n, err)
	}
}

// A pushed sort whose limit spans several batches keeps its order across getMore, and a projection
// (applied after the limit) does not change which rows come.
func TestPushedSortAcrossBatchesAndWithAProjection(t *testing.T) {
	client := startFerret(t)
	db := client.Database("sortpush")
	c := db.Collection("rows")
	seedMixed(t, c)
	ctx := context.Background()
	f := bson.D{{Key: "tenantId", Value: "t1"}}
	s := bson.D{{Key: "k", Value: -1}, {Key: "_id", Value: 1}}
	want := window(findIDs(t, c, f, s, 0, 0), 3, 50)

	cur, err := c.Find(ctx, f, options.Find().SetSort(s).SetSkip(3).SetLimit(50).SetBatchSize(7).SetProjection(bson.D{{Key: "k", Value: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.M
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		if _, ok := d["k"]; ok {
			t.Errorf("projection: %v", d)
		}
		got = append(got, fmt.Sprint(d["_id"]))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || len(want) != 50 {
		t.Errorf("batches of 7:\n got %v\nwant %v", got, want)
	}
}
