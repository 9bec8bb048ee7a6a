package rawjson_test

import (
	"fmt"
	"strings"
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
	// Around the sizes of the scanners' inline arrays: members, names and
	// nesting depth.
	for _, n := range []int{12, 13, 24, 25, 33} {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"k%d":{"x":[%d]},`, i, i)
		}
		fmt.Fprintf(&b, `"deep":%s1%s}`, strings.Repeat(`[{"k":`, n/2), strings.Repeat(`}]`, n/2))
		f.Add([]byte(b.String()))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !checkSame(t, raw) {
			rawjson.MembersTrusted(raw) // must not panic
		}
	})
}
