package rawjson_test

import (
	"testing"

	"github.com/gohooks/hook/internal/rawjson"
)

// FuzzMembers checks on arbitrary input that the validating scanner
// accepts exactly what jsontext accepts and splits it the same way, that
// the trusted scanner splits every accepted input the same way, and that
// the trusted scanner never panics, whatever it is given.
//
//	go test ./internal/rawjson -run '^$' -fuzz FuzzMembers -fuzztime 1m
func FuzzMembers(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	for _, raw := range tricky() {
		if len(raw) < 4096 {
			f.Add(raw)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !checkSame(t, raw) {
			rawjson.MembersTrusted(raw) // must not panic
		}
	})
}
