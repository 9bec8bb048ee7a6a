package rawjson_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

// stringSpans returns the spans of the strings of the valid JSON text b,
// found byte by byte: the reference the Compactor's known spans come from.
func stringSpans(b []byte) []rawjson.StringSpan {
	var spans []rawjson.StringSpan
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		start := i
		for i++; b[i] != '"'; i++ {
			if b[i] == '\\' {
				i++
			}
		}
		spans = append(spans, rawjson.StringSpan{Start: start, End: i + 1})
	}
	return spans
}

// compactInPieces compacts text with a Compactor that knows the string
// spans chosen by pick, fed in pieces cut at the offsets cuts (in order),
// each piece compacted in place and appended.
func compactInPieces(text []byte, cuts []int, known []rawjson.StringSpan) []byte {
	buf := bytes.Clone(text)
	c := rawjson.NewCompactor(known)
	var out []byte
	prev := 0
	for _, cut := range append(cuts, len(buf)) {
		if cut < prev || cut > len(buf) {
			continue
		}
		p := buf[prev:cut]
		out = append(out, p[:c.Compact(p, prev)]...)
		prev = cut
	}
	return out
}

// checkCompact checks that the Compactor compacts the valid JSON text as
// encoding/json's Compact does (which keeps the bytes of strings), cut
// into pieces at every offset and with every string known or none.
func checkCompact(t *testing.T, text []byte, cuts []int, pick uint64) {
	var want bytes.Buffer
	require.NoError(t, json.Compact(&want, text))
	all := stringSpans(text)
	var some []rawjson.StringSpan
	for i, s := range all {
		if pick>>(i%64)&1 == 1 {
			some = append(some, s)
		}
	}
	for _, known := range [][]rawjson.StringSpan{nil, all, some} {
		require.Equal(t, want.String(), string(compactInPieces(text, cuts, known)), "cuts %v, known %v", cuts, known)
	}
	require.Equal(t, want.String(), string(rawjson.AppendCompact(nil, text)))
	require.True(t, rawjson.SameTokens(text, want.Bytes()))
	require.True(t, rawjson.SameTokens(want.Bytes(), text))
}

var prettyCases = []string{
	`{}`, `{ }`, " [ \t\r\n] ", `"a b"`, `  1 `, `{"a" : 1 , "b":[ true ,false, null ,"x\" y" ] }`,
	`{"s": "a\\", "t": "\\\\ \" \u0020 "}`,
	"{\r\n\t\"room\": \"Ops \\\"war room\\\" \\\\ Zürich\\tnight\",\r\n\t\"n\": [1, 2.5e3, -0, {\"k\" : { } }]\r\n}",
}

func TestCompactor(t *testing.T) {
	for _, c := range prettyCases {
		text := []byte(c)
		// Every single cut, and every pair of cuts.
		for i := 0; i <= len(text); i++ {
			checkCompact(t, text, []int{i}, 0x5555)
			for j := i; j <= len(text); j++ {
				checkCompact(t, text, []int{i, j}, uint64(i*31+j))
			}
		}
	}
	// A long string with escapes across 8-byte words.
	long := `{"notes": "` + strings.Repeat(`caf\u00e9 \"x\" \\ `, 200) + `" , "z" : 1}`
	checkCompact(t, []byte(long), []int{3, 13, 500, 501, 1700}, ^uint64(0))
}

// FuzzCompactor checks the Compactor against encoding/json's Compact on
// any valid JSON text, cut into pieces anywhere.
//
//	go test ./internal/rawjson -run '^$' -fuzz FuzzCompactor -fuzztime 1m
func FuzzCompactor(f *testing.F) {
	for _, c := range prettyCases {
		f.Add([]byte(c), uint16(3), uint16(7), uint64(5))
	}
	f.Fuzz(func(t *testing.T, text []byte, a, b uint16, pick uint64) {
		if ok, _ := rawjson.Valid(text); !ok || !json.Valid(text) {
			return
		}
		cuts := []int{int(a) % (len(text) + 1), int(b) % (len(text) + 1)}
		if cuts[0] > cuts[1] {
			cuts[0], cuts[1] = cuts[1], cuts[0]
		}
		checkCompact(t, text, cuts, pick)
	})
}

// BenchmarkCompactor compacts a pretty-printed object of many small
// members, and one of a long string, in 256 KiB pieces as the answer's
// writer does.
func BenchmarkCompactor(b *testing.B) {
	var many bytes.Buffer
	many.WriteString("{\r\n")
	for i := range 50000 {
		fmt.Fprintf(&many, "  \t\"k%d\": %d,\r\n", i, i)
	}
	many.WriteString("  \"room\": \"x\"\r\n}")
	long := []byte(`{"room": "x", "notes": "` + strings.Repeat(`caf\u00e9 \"x\" \\ plain text `, 20000) + `"}`)
	for _, c := range []struct {
		name string
		text []byte
	}{{"members", many.Bytes()}, {"string", long}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, len(c.text))
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				copy(buf, c.text)
				comp := rawjson.NewCompactor(nil)
				for at := 0; at < len(buf); at += 256 << 10 {
					comp.Compact(buf[at:min(at+256<<10, len(buf))], at)
				}
			}
		})
	}
}
