package rawjson_test

import (
	"testing"

	"github.com/gohooks/hook/bench/payload"
	"github.com/gohooks/hook/internal/rawjson"
)

// BenchmarkMembers compares, on each benchmark payload, the validating
// scanner (Members), the trusted splitter (MembersTrusted) and the
// jsontext-based reference they replace.
func BenchmarkMembers(b *testing.B) {
	for _, p := range payload.All() {
		for _, f := range []struct {
			name  string
			split func([]byte) ([]rawjson.Member, error)
		}{
			{"validate", rawjson.Members},
			{"trusted", rawjson.MembersTrusted},
			{"jsontext", rawjson.MembersReference},
		} {
			b.Run(p.Name+"/"+f.name, func(b *testing.B) {
				b.SetBytes(int64(len(p.Data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := f.split(p.Data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
