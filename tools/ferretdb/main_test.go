package main

import (
	"encoding/binary"
	"testing"

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
	binary.LittleEndian.PutUint32(msg[12:16], opMsg)
	binary.LittleEndian.PutUint32(msg[16:20], flags)
	msg[20] = 0
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:4], uint32(len(msg)))
	return msg
}

func TestWriteTarget(t *testing.T) {
	cases := []struct {
		name    string
		cmd     bson.D
		flags   uint32
		want    string
		noReply bool
	}{
		{"update keyed by database and collection", bson.D{{Key: "update", Value: "deliveries"}, {Key: "ordered", Value: true}, {Key: "lsid", Value: bson.D{{Key: "id", Value: []byte{1, 2}}}}, {Key: "txnNumber", Value: int64(3)}, {Key: "$db", Value: "t_a_webhook_dispatcher"}}, 0, "t_a_webhook_dispatcher.deliveries", false},
		{"insert", bson.D{{Key: "insert", Value: "inbox"}, {Key: "$db", Value: "travel_employees"}}, 0, "travel_employees.inbox", false},
		{"findAndModify", bson.D{{Key: "findAndModify", Value: "subscriptions"}, {Key: "new", Value: true}, {Key: "maxTimeMS", Value: int32(5)}, {Key: "$db", Value: "x"}}, 0, "x.subscriptions", false},
		{"delete without reply", bson.D{{Key: "delete", Value: "c"}, {Key: "$db", Value: "d"}}, moreToCome, "d.c", true},
		{"a read passes unlocked", bson.D{{Key: "find", Value: "deliveries"}, {Key: "$db", Value: "d"}}, 0, "", false},
		{"a rare field type before $db keeps the collection key", bson.D{{Key: "update", Value: "c"}, {Key: "re", Value: primitive.Regex{Pattern: "a", Options: "i"}}, {Key: "$db", Value: "d"}}, 0, ".c", false},
	}
	for _, c := range cases {
		got, noReply := writeTarget(buildOpMsg(t, c.flags, c.cmd))
		if got != c.want || noReply != c.noReply {
			t.Errorf("%s: got (%q, %v), want (%q, %v)", c.name, got, noReply, c.want, c.noReply)
		}
	}
}
