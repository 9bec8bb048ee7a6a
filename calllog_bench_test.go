package hook_test

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/benchpayload"
)

// BenchmarkServeCallLog is BenchmarkServe's 300-byte MCP call with the
// call log off (the default: it must cost what BenchmarkServe/mcp-300B
// costs, allocations included) and on (one line appended per call).
func BenchmarkServeCallLog(b *testing.B) {
	in := append(benchpayload.MCP(), '\n')
	for _, c := range []struct{ name, log string }{{"off", ""}, {"on", filepath.Join(b.TempDir(), "calls.jsonl")}} {
		b.Run(c.name, func(b *testing.B) {
			b.Setenv(hook.CallLogEnv, "")
			s := &hook.Server{Handler: hook.PreToolUseFunc(mergeOne), CallLog: c.log}
			var r bytes.Reader
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				r.Reset(in)
				if code := s.Serve(context.Background(), &r, io.Discard, io.Discard); code != hook.ExitOK {
					b.Fatalf("exit code %d", code)
				}
			}
		})
	}
}
