package main

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/benchpayload"
)

// BenchmarkServe runs the fingerprint hook end to end in process, as
// hook.Run would, on each benchmark payload: the 300-byte MCP call it
// answers, and the 145 KB and 7 MB Writes it reads and lets pass. Bytes
// are those of the event.
func BenchmarkServe(b *testing.B) {
	h := Handler()
	for _, p := range benchpayload.All() {
		in := append(append([]byte(nil), p.Data...), '\n')
		b.Run(p.Name, func(b *testing.B) {
			var r bytes.Reader
			var out bytes.Buffer
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				r.Reset(in)
				out.Reset()
				if code := hook.Serve(context.Background(), &r, &out, io.Discard, h); code != hook.ExitOK {
					b.Fatalf("exit code %d", code)
				}
			}
			if p.Name == "mcp-300B" && !bytes.Contains(out.Bytes(), []byte(`"fingerprint":"`+Fingerprint(benchpayload.Cwd)+`"`)) {
				b.Fatalf("no fingerprint in %s", out.Bytes())
			}
		})
	}
}
