package rawjson_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/rawjson"
)

// BenchmarkMembers compares, on each benchmark payload, the validating
// scanner (Members), the trusted splitter (MembersTrusted) and the
// jsontext-based reference they replace.
func BenchmarkMembers(b *testing.B) {
	for _, p := range benchpayload.All() {
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

// BenchmarkSmall measures the scanners on a 313-byte hook event and Valid
// on a small answer, where allocations dominate.
func BenchmarkSmall(b *testing.B) {
	ev := []byte(hookEvent)
	ans := []byte(smallAnswer)
	b.Run("Members", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rawjson.Members(ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MembersTrusted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rawjson.MembersTrusted(ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if ok, _ := rawjson.Valid(ans); !ok {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkTokens measures the scanners on 53 KB made only of short
// tokens: many names, at the top and nested, and nesting deeper than the
// validator's inline arrays, where its slices move to the heap.
func BenchmarkTokens(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{")
	for i := range 300 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `"member_%d":{"a":%d,"b\u0062":[true,null,-1.5e3],"c":{"d":{"e":"f"}},"deep":%s1%s}`,
			i, i, strings.Repeat(`[{"x":`, 12), strings.Repeat(`}]`, 12))
	}
	sb.WriteString("}")
	raw := []byte(sb.String())
	for _, f := range []struct {
		name string
		f    func([]byte) bool
	}{
		{"Members", func(r []byte) bool { _, err := rawjson.Members(r); return err == nil }},
		{"MembersTrusted", func(r []byte) bool { _, err := rawjson.MembersTrusted(r); return err == nil }},
		{"Valid", func(r []byte) bool { ok, _ := rawjson.Valid(r); return ok }},
	} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if !f.f(raw) {
					b.Fatal("refused")
				}
			}
		})
	}
}
