package hook_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/rawjson"
)

// toolInput returns the tool_input member of a generated benchpayload.
func toolInput(tb testing.TB, p benchpayload.Payload) jsontext.Value {
	tb.Helper()
	ms, err := rawjson.Members(p.Data)
	if err != nil {
		tb.Fatal(err)
	}
	m, ok := rawjson.Find(ms, "tool_input")
	if !ok {
		tb.Fatalf("%s has no tool_input", p.Name)
	}
	return m.Value
}

// BenchmarkMerge merges one member into the tool_input of each payload:
// the 300-byte MCP call, the 145 KB Write and the 7 MB escape-heavy Write.
// Bytes are those of the tool_input.
func BenchmarkMerge(b *testing.B) {
	patch := jsontext.Value(`{"fingerprint":"6689668a49dc648b"}`)
	for _, p := range benchpayload.All() {
		orig := toolInput(b, p)
		b.Run(p.Name, func(b *testing.B) {
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := hook.Merge(orig, patch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMergeMapPatch is BenchmarkMerge with the patch given as a map,
// as the fingerprint example does, so encoding the patch is included.
func BenchmarkMergeMapPatch(b *testing.B) {
	patch := map[string]string{"fingerprint": "6689668a49dc648b"}
	for _, p := range benchpayload.All() {
		orig := toolInput(b, p)
		b.Run(p.Name, func(b *testing.B) {
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := hook.Merge(orig, patch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
