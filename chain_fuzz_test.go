package hook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// The events FuzzChain composes handlers for: the three that rewrite
// their input, and Stop, where every handler runs.
var fuzzChainEvents = []struct {
	name, member string
	in           string
}{
	{hook.EventPreToolUse, "tool_input", `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","timeout":1000,"description":"list"},"tool_use_id":"t"}`},
	{hook.EventPermissionRequest, "tool_input", `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls","timeout":1000,"description":"list"}}`},
	{hook.EventPostToolUse, "tool_response", `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PostToolUse","tool_name":"mcp__s__t","tool_input":{},"tool_response":{"text":"out","code":0,"more":true},"tool_use_id":"t"}`},
	{hook.EventStop, "", `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"Stop","stop_hook_active":false}`},
}

// The handler kinds of FuzzChain.
const (
	opNone       = iota // no answer
	opPermit            // allow, or a context
	opAdd               // a new member, built from what it saw
	opChange            // a new value for a member it saw
	opRemove            // drops a member (listed in Removed where the answer has it)
	opStale             // a new member, built from the original input
	opError             // fails: an error
	opPanic             // fails: a panic
	opInvalid           // fails: an answer of another event
	opPartial           // fails: drops a member without saying so (tool_input only)
	opRefuse            // deny or block, as an answer
	opBlock             // hook.Block
	opFailClosed        // FailClosed around the next handler
	opChain             // a sub-chain of the next 1–3 handlers
	opMux               // a Mux of the next 1–3 handlers
	opCount
)

// chainRun is what the handlers of one FuzzChain run did.
type chainRun struct {
	event  string
	member string
	orig   map[string]string // the original input's members
	// failed: a handler failed (an error, a panic, an invalid or lossy
	// answer); refused: a handler refused the action.
	failed, refused bool
	// last is the last rewrite that was not a failure.
	last map[string]string
	adds int
}

// members reads a flat object of the fuzz inputs as name → raw value.
func members(t *testing.T, v jsontext.Value) map[string]string {
	var m map[string]jsontext.Value
	if err := json.Unmarshal(v, &m); err != nil {
		t.Fatalf("not an object: %s: %v", v, err)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

func sameMembers(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func objectOf(m map[string]string) jsontext.Value {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, v := range m {
		if !first {
			b.WriteByte(',')
		}
		first = false
		q, _ := jsontext.AppendQuote(nil, k)
		b.Write(q)
		b.WriteByte(':')
		b.WriteString(v)
	}
	b.WriteByte('}')
	return jsontext.Value(b.String())
}

// answerWith returns the event's answer carrying the rewrite upd (nil:
// none) with removed, or a permit.
func (r *chainRun) answerWith(upd jsontext.Value, removed []string) hook.Output {
	switch r.event {
	case hook.EventPreToolUse:
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd, Removed: removed}
	case hook.EventPermissionRequest:
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd, Removed: removed}
	case hook.EventPostToolUse:
		return &hook.PostToolUseOutput{AdditionalContext: "permitted", UpdatedToolOutput: upd}
	}
	return &hook.StopOutput{AdditionalContext: "permitted"}
}

func (r *chainRun) refusal() hook.Output {
	switch r.event {
	case hook.EventPreToolUse:
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "refused"}
	case hook.EventPermissionRequest:
		return &hook.PermissionRequestOutput{Decision: hook.Deny, Message: "refused"}
	case hook.EventPostToolUse:
		return &hook.PostToolUseOutput{Block: true, Reason: "refused"}
	}
	return &hook.StopOutput{Block: true, Reason: "refused"}
}

// rewriter is a handler of kind op, the i-th of the run, rewriting its
// input with rewrite, which returns the new members, those it removes on
// purpose, and whether the rewrite loses or undoes something.
func (r *chainRun) rewriter(t *testing.T, rewrite func(seen map[string]string) (map[string]string, []string, bool)) hook.Handler {
	return hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
		if r.member == "" {
			return r.answerWith(nil, nil), nil
		}
		v, _ := ev.Field(r.member)
		seen := members(t, v)
		upd, removed, lossy := rewrite(seen)
		if len(upd) == 0 && r.event != hook.EventPostToolUse {
			lossy = true // an empty updatedInput is refused
		}
		if lossy {
			r.failed = true
		} else {
			r.last = upd
		}
		return r.answerWith(objectOf(upd), removed), nil
	})
}

// build reads handlers from ops until it has n (or ops run out).
func (r *chainRun) build(t *testing.T, ops *[]byte, n, depth int, count *int) []hook.Handler {
	var hs []hook.Handler
	for len(hs) < n && len(*ops) > 0 && *count < 12 {
		op := (*ops)[0] % opCount
		arg := int((*ops)[0] / opCount)
		*ops = (*ops)[1:]
		*count++
		if h := r.handler(t, op, arg, ops, depth, count); h != nil {
			hs = append(hs, h)
		}
	}
	return hs
}

func (r *chainRun) handler(t *testing.T, op byte, arg int, ops *[]byte, depth int, count *int) hook.Handler {
	pick := func(seen map[string]string) string {
		if len(seen) == 0 {
			return ""
		}
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		// A stable choice among the sorted names.
		for i := range keys {
			for j := i + 1; j < len(keys); j++ {
				if keys[j] < keys[i] {
					keys[i], keys[j] = keys[j], keys[i]
				}
			}
		}
		return keys[arg%len(keys)]
	}
	copyOf := func(m map[string]string) map[string]string {
		c := make(map[string]string, len(m)+1)
		for k, v := range m {
			c[k] = v
		}
		return c
	}
	fail := func(f func() (hook.Output, error)) hook.Handler {
		return hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			r.failed = true
			return f()
		})
	}
	switch op {
	case opNone:
		return hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil })
	case opPermit:
		return hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return r.answerWith(nil, nil), nil })
	case opAdd:
		return r.rewriter(t, func(seen map[string]string) (map[string]string, []string, bool) {
			r.adds++
			upd := copyOf(seen)
			upd[fmt.Sprintf("add%d", r.adds)] = fmt.Sprintf(`"v%d"`, r.adds)
			return upd, nil, false
		})
	case opChange:
		return r.rewriter(t, func(seen map[string]string) (map[string]string, []string, bool) {
			r.adds++
			upd := copyOf(seen)
			if k := pick(seen); k != "" {
				upd[k] = fmt.Sprintf(`"changed%d"`, r.adds)
			}
			return upd, nil, false
		})
	case opRemove:
		return r.rewriter(t, func(seen map[string]string) (map[string]string, []string, bool) {
			upd := copyOf(seen)
			k := pick(seen)
			delete(upd, k)
			if r.event == hook.EventPostToolUse {
				// No Removed: an earlier handler's member is kept.
				ov, inOrig := r.orig[k]
				return upd, nil, k != "" && (!inOrig || ov != seen[k])
			}
			return upd, []string{k}, false
		})
	case opStale:
		return r.rewriter(t, func(seen map[string]string) (map[string]string, []string, bool) {
			r.adds++
			upd := copyOf(r.orig)
			upd[fmt.Sprintf("add%d", r.adds)] = fmt.Sprintf(`"v%d"`, r.adds)
			return upd, nil, !sameMembers(seen, r.orig)
		})
	case opError:
		return fail(func() (hook.Output, error) { return nil, errors.New("guard broke") })
	case opPanic:
		return fail(func() (hook.Output, error) { panic("guard panicked") })
	case opInvalid:
		return fail(func() (hook.Output, error) {
			if r.event == hook.EventStop {
				return &hook.PreToolUseOutput{Decision: hook.Allow}, nil
			}
			return &hook.StopOutput{AdditionalContext: "wrong event"}, nil
		})
	case opPartial:
		if r.event != hook.EventPreToolUse && r.event != hook.EventPermissionRequest {
			return fail(func() (hook.Output, error) { return nil, errors.New("guard broke") })
		}
		return r.rewriter(t, func(seen map[string]string) (map[string]string, []string, bool) {
			upd := copyOf(seen)
			delete(upd, pick(seen))
			return upd, nil, true
		})
	case opRefuse:
		return hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			r.refused = true
			return r.refusal(), nil
		})
	case opBlock:
		return hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			r.refused = true
			return nil, hook.Block("blocked")
		})
	}
	if depth >= 3 {
		return nil
	}
	switch op {
	case opFailClosed:
		hs := r.build(t, ops, 1, depth+1, count)
		if len(hs) == 0 {
			return nil
		}
		return hook.FailClosed(hs[0])
	case opChain:
		hs := r.build(t, ops, arg%3+1, depth+1, count)
		if len(hs) == 0 {
			return nil // an empty Chain answers no event: a Mux refuses it
		}
		return hook.Chain(hs...)
	case opMux:
		hs := r.build(t, ops, arg%3+1, depth+1, count)
		if len(hs) == 0 {
			return nil
		}
		return muxOf(r.event, hs...)
	}
	return nil
}

// refusing reports whether the answer stdout refuses the action.
func refusing(stdout string) bool {
	return strings.Contains(stdout, `"permissionDecision":"deny"`) ||
		strings.Contains(stdout, `"behavior":"deny"`) ||
		strings.Contains(stdout, `"decision":"block"`)
}

// rewriteOf returns the rewrite in the answer stdout to event, or nil.
func rewriteOf(t *testing.T, event, stdout string) map[string]string {
	var a struct {
		Specific struct {
			UpdatedInput      jsontext.Value `json:"updatedInput"`
			UpdatedToolOutput jsontext.Value `json:"updatedToolOutput"`
			Decision          struct {
				UpdatedInput jsontext.Value `json:"updatedInput"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(stdout), &a); err != nil {
		t.Fatalf("answer is not JSON: %q: %v", stdout, err)
	}
	var v jsontext.Value
	switch event {
	case hook.EventPreToolUse:
		v = a.Specific.UpdatedInput
	case hook.EventPermissionRequest:
		v = a.Specific.Decision.UpdatedInput
	case hook.EventPostToolUse:
		v = a.Specific.UpdatedToolOutput
	}
	if v == nil {
		return nil
	}
	return members(t, v)
}

// FuzzChain composes random handlers — rewriters, stale copies, failures
// of every kind, refusals, FailClosed, sub-chains and Muxes — and checks
// that no member is lost silently and that a failure never lets the
// action through: fail-closed, the hook blocks; fail-open, it fails;
// either way unless an answer refuses the action anyway. With no failure
// and no refusal, the answer's rewrite is exactly the last one made.
func FuzzChain(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, opPermit, opAdd, opStale},
		{0, 1, opAdd, opChange + opCount, opRemove, opAdd},
		{0, 2, opPermit, opError},
		{1, 0, opAdd, opStale},
		{2, 1, opChange, opStale, opRemove},
		{2, 0, opAdd, opRemove + 3*opCount},
		{3, 1, opPermit, opPanic},
		{0, 1, opChain + 2*opCount, opAdd, opChain, opStale, opPermit},
		{0, 0, opMux + opCount, opAdd, opAdd, opFailClosed, opInvalid},
		{0, 2, opPartial, opRefuse},
		{1, 1, opFailClosed, opPermit, opError, opBlock},
		{0, 2, opChain, opMux + opCount, opAdd, opStale, opAdd},
		{0, 0, opMux, opChain},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		ev := fuzzChainEvents[int(data[0])%len(fuzzChainEvents)]
		scope := int(data[1]) % 3 // fail-open, FailClosed wrapper, Server.FailClosed
		r := &chainRun{event: ev.name, member: ev.member}
		if ev.member != "" {
			var whole map[string]jsontext.Value
			if err := json.Unmarshal([]byte(ev.in), &whole); err != nil {
				t.Fatal(err)
			}
			r.orig = members(t, whole[ev.member])
		}
		ops := data[2:]
		count := 0
		h := hook.Chain(r.build(t, &ops, 12, 0, &count)...)
		srv := hook.Server{Handler: h}
		switch scope {
		case 1:
			srv.Handler = hook.FailClosed(h)
		case 2:
			srv.FailClosed = true
		}
		var stdout, stderr bytes.Buffer
		code := srv.Serve(context.Background(), strings.NewReader(ev.in), &stdout, &stderr)
		out, errs := stdout.String(), stderr.String()
		what := fmt.Sprintf("%s, scope %d, failed %v, refused %v: exit %d, stdout %q, stderr %q", ev.name, scope, r.failed, r.refused, code, out, errs)

		if code != hook.ExitOK && out != "" {
			t.Fatalf("stdout with a failure: %s", what)
		}
		switch {
		case r.refused:
			// The action is refused: by exit 2 or by the answer.
			if !(code == hook.ExitBlock || code == hook.ExitOK && refusing(out)) {
				t.Fatalf("a refusal did not refuse: %s", what)
			}
		case r.failed:
			if code == hook.ExitOK && !refusing(out) {
				t.Fatalf("a failure let the action through: %s", what)
			}
			if scope != 0 && hook.CanBlock(ev.name) && code != hook.ExitBlock && !(code == hook.ExitOK && refusing(out)) {
				t.Fatalf("a fail-closed scope did not block after a failure: %s", what)
			}
		default:
			if code != hook.ExitOK {
				t.Fatalf("no failure, yet the hook failed: %s", what)
			}
			if ev.member == "" || out == "" {
				return
			}
			got := rewriteOf(t, ev.name, out)
			if r.last == nil {
				if got != nil {
					t.Fatalf("a rewrite nobody made: %s", what)
				}
				return
			}
			if got == nil && sameMembers(r.last, r.orig) {
				return // a rewrite back to the input is no rewrite: not written
			}
			if !sameMembers(got, r.last) {
				t.Fatalf("the answer's rewrite %v is not the last one made, %v: %s", got, r.last, what)
			}
		}
	})
}
