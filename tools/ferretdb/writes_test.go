package main

// Tests of the write fixes in sqlite-pushdown.patch (docs/decisions/0087) against a running embedded
// FerretDB (build.sh --test runs them on the patched module; the first fails on upstream v1.24.2).

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// One update command of 250 compare-and-set statements that all match (the dispatcher's batched
// outcomes, decision 0060; the relay's removals): upstream kept each matching statement's SQLite rows
// open to the end of the command, and the 100th statement waited forever for one of the pool's 100
// connections, wedging the whole database.
func TestAnUpdateOfManyMatchingStatementsCompletes(t *testing.T) {
	client := startFerret(t)
	db := client.Database("many")
	c := db.Collection("deliveries")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const n = 250
	docs := make([]any, n)
	models := make([]mongo.WriteModel, n)
	for i := range docs {
		id := fmt.Sprintf("d%03d", i)
		docs[i] = bson.D{{Key: "_id", Value: id}, {Key: "tenantId", Value: "t"}, {Key: "attemptsMade", Value: 0}}
		models[i] = mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "_id", Value: id}, {Key: "tenantId", Value: "t"}, {Key: "attemptsMade", Value: 0}}).
			SetUpdate(bson.D{{Key: "$set", Value: bson.D{{Key: "attemptsMade", Value: 1}}}})
	}
	if _, err := c.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	res, err := c.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	if err != nil {
		t.Fatalf("bulk update of %d statements: %v", n, err)
	}
	if res.MatchedCount != n || res.ModifiedCount != n {
		t.Errorf("matched %d, modified %d; want %d", res.MatchedCount, res.ModifiedCount, n)
	}
	// The database still answers, and every statement kept its compare-and-set meaning: running the
	// same command again changes nothing.
	again, err := c.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	if err != nil || again.ModifiedCount != 0 {
		t.Errorf("second run: %+v %v", again, err)
	}
	if got, err := c.CountDocuments(ctx, bson.D{{Key: "attemptsMade", Value: 1}}); err != nil || got != n {
		t.Errorf("count %d %v", got, err)
	}
}

// Write commands run with the deadline in FERRETDB_LOCAL_WRITE_TIMEOUT (set by the front from
// -write-timeout): one that cannot finish in time fails, and the database stays usable.
func TestWriteCommandsHaveADeadline(t *testing.T) {
	client := startFerret(t)
	c := client.Database("deadline").Collection("c")
	ctx := context.Background()
	if _, err := c.InsertOne(ctx, bson.D{{Key: "_id", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FERRETDB_LOCAL_WRITE_TIMEOUT", "1ns")
	if _, err := c.UpdateOne(ctx, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "$set", Value: bson.D{{Key: "x", Value: 1}}}}); err == nil {
		t.Error("an update past its deadline succeeded")
	}
	// Reads have no deadline of their own.
	if err := c.FindOne(ctx, bson.D{{Key: "_id", Value: 1}}).Err(); err != nil {
		t.Errorf("read: %v", err)
	}
	t.Setenv("FERRETDB_LOCAL_WRITE_TIMEOUT", "1m")
	if res, err := c.UpdateOne(ctx, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "$set", Value: bson.D{{Key: "x", Value: 2}}}}); err != nil || res.ModifiedCount != 1 {
		t.Errorf("update after the deadline error: %+v %v", res, err)
	}
}
