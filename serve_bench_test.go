package hook_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/benchpayload"
)

// mergeOne is a PreToolUse handler that merges one member into the input
// of every tool call and allows it, as bench/mergehook does.
func mergeOne(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	upd, err := e.Merge(jsontext.Value(`{"fingerprint":"6689668a49dc648b"}`))
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
}

// BenchmarkServe runs Serve end to end in process on each payload of
// benchpayload.All (the 300-byte MCP call, the 145 KB Write, the 7 MB
// escape-heavy Write, the 7.2 MiB MCP call of the same text and the
// 50,000-member MCP call) with a handler that merges one member into the tool input: reading and
// validating the event, decoding it, merging, validating and writing the
// answer. Bytes are those of the event. The fingerprint example's own
// benchmark is in examples/fingerprint.
func BenchmarkServe(b *testing.B) {
	h := hook.PreToolUseFunc(mergeOne)
	for _, p := range benchpayload.All() {
		b.Run(p.Name, func(b *testing.B) {
			benchServe(b, h, p.Data)
		})
	}
}

// BenchmarkServeNoAnswer is BenchmarkServe with a handler that answers
// nothing: the cost of reading, validating and decoding the event alone.
func BenchmarkServeNoAnswer(b *testing.B) {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, nil
	})
	for _, p := range benchpayload.All() {
		b.Run(p.Name, func(b *testing.B) {
			benchServe(b, h, p.Data)
		})
	}
}

// BenchmarkServeSpaced is BenchmarkServe on the MCP calls compact, with
// Python's json.dumps separators (spaced) and pretty-printed one member a
// line (indented): the same calls, whose answers are the same bytes
// (issue 32, item 6: spaced input within 1.1x of compact). "merge" is
// the event's Merge, which the invocation vouches for; "checked" an
// updatedInput of the handler's own, which every check reads (as an
// Update or Edit result is): the input's bytes, its whitespace kept, with
// the member added before the closing brace.
func BenchmarkServeSpaced(b *testing.B) {
	checked := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in := e.ToolInput
		upd := append(append(make(jsontext.Value, 0, len(in)+40), in[:len(in)-1]...), `,"fingerprint":"6689668a49dc648b"}`...)
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	for _, p := range benchpayload.All() {
		if p.Name == "write-145KB" || p.Name == "write-7MB" {
			continue
		}
		for _, form := range []struct {
			name string
			data []byte
		}{{"compact", p.Data}, {"spaced", benchpayload.Spaced(p.Data)}, {"indented", benchpayload.Indented(p.Data)}} {
			for _, h := range []struct {
				name string
				h    hook.Handler
			}{{"merge", hook.PreToolUseFunc(mergeOne)}, {"checked", checked}} {
				b.Run(p.Name+"/"+form.name+"/"+h.name, func(b *testing.B) {
					benchServe(b, h.h, form.data)
				})
			}
		}
	}
}

func benchServe(b *testing.B, h hook.Handler, data []byte) {
	in := append(append([]byte(nil), data...), '\n')
	var r bytes.Reader
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(in)
		if code := hook.Serve(context.Background(), &r, io.Discard, io.Discard, h); code != hook.ExitOK {
			b.Fatalf("exit code %d", code)
		}
	}
}

// BenchmarkServeParallel runs Serve on the 300-byte MCP call with the
// merge-one handler from b.RunParallel's goroutines (GOMAXPROCS of them;
// set with -cpu), each with its own reader: the throughput of one process
// serving many events at once, as an http hook does. With no shared
// state in the way, ns/op at N CPUs is ns/op at 1 CPU divided by N;
// bench/run.sh prints the ratio it gets.
func BenchmarkServeParallel(b *testing.B) {
	h := hook.PreToolUseFunc(mergeOne)
	in := append(benchpayload.MCP(), '\n')
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var r bytes.Reader
		for pb.Next() {
			r.Reset(in)
			if code := hook.Serve(context.Background(), &r, io.Discard, io.Discard, h); code != hook.ExitOK {
				b.Errorf("exit code %d", code)
				return
			}
		}
	})
}
