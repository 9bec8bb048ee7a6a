package hook_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// jv is a JSON value of FuzzChainUndoArrays: a string, an object (names
// in order) or an array.
type jv struct {
	kind  byte // 's', 'o', 'a'
	s     string
	names []string
	vals  []*jv
}

func (v *jv) clone() *jv {
	c := &jv{kind: v.kind, s: v.s, names: append([]string(nil), v.names...)}
	for _, e := range v.vals {
		c.vals = append(c.vals, e.clone())
	}
	return c
}

func (v *jv) write(b *strings.Builder) {
	switch v.kind {
	case 's':
		fmt.Fprintf(b, "%q", v.s)
	case 'o':
		b.WriteByte('{')
		for i, n := range v.names {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, "%q:", n)
			v.vals[i].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	}
}

func (v *jv) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

// leaves calls f with every string of v.
func (v *jv) leaves(f func(string)) {
	if v.kind == 's' {
		f(v.s)
	}
	for _, e := range v.vals {
		e.leaves(f)
	}
}

// undoGen builds values and changes from the fuzzer's bytes; every string
// it makes is new, so a string names the one place it was made for.
type undoGen struct {
	data []byte
	n    int
}

func (g *undoGen) next() byte {
	if len(g.data) == 0 {
		return 0
	}
	c := g.data[0]
	g.data = g.data[1:]
	return c
}

func (g *undoGen) fresh(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

// value makes a value; an element of an array is a string or an object
// with an "id", which no handler changes: what tells the element apart
// when its other members change. (Arrays in arrays, which have no such
// identity, are in TestChainStaleCopyArrays.)
func (g *undoGen) value(depth int, inArray bool) *jv {
	c := g.next()
	switch {
	case depth >= 3 || c%3 == 0:
		return &jv{kind: 's', s: g.fresh("v")}
	case c%3 == 1 || inArray:
		o := &jv{kind: 'o'}
		if inArray {
			o.names, o.vals = append(o.names, "id"), append(o.vals, &jv{kind: 's', s: g.fresh("id")})
		}
		for i := range 1 + int(g.next()%3) {
			o.names = append(o.names, fmt.Sprintf("m%d", i))
			o.vals = append(o.vals, g.value(depth+1, false))
		}
		return o
	default:
		a := &jv{kind: 'a'}
		for range 1 + int(g.next()%4) {
			a.vals = append(a.vals, g.value(depth+1, true))
		}
		return a
	}
}

// redact is the first handler's change: it replaces some strings (never
// an id), recorded in secrets, and removes some array elements, recorded
// in removed.
func (g *undoGen) redact(v *jv, secrets map[string]bool, removed *[]*jv) {
	switch v.kind {
	case 'o':
		for i, n := range v.names {
			if n == "id" {
				continue
			}
			if e := v.vals[i]; e.kind == 's' {
				if g.next()%3 == 0 {
					secrets[e.s] = true
					e.s = g.fresh("***")
				}
				continue
			}
			g.redact(v.vals[i], secrets, removed)
		}
	case 'a':
		kept := v.vals[:0]
		for _, e := range v.vals {
			switch c := g.next(); {
			case c%5 == 0:
				*removed = append(*removed, e.clone())
				continue
			case e.kind == 's' && c%5 == 1:
				secrets[e.s] = true
				e.s = g.fresh("***")
			default:
				g.redact(e, secrets, removed)
			}
			kept = append(kept, e)
		}
		v.vals = kept
	}
}

// rework is the second handler's change to the value it starts from:
// elements appended, prepended, reordered or removed, members added to
// elements and, when leaves is set, strings replaced.
func (g *undoGen) rework(v *jv, leaves bool) {
	switch v.kind {
	case 'o':
		for i, n := range v.names {
			if e := v.vals[i]; e.kind == 's' {
				if leaves && n != "id" && g.next()%4 == 0 {
					e.s = g.fresh("w")
				}
				continue
			}
			g.rework(v.vals[i], leaves)
		}
	case 'a':
		for _, e := range v.vals {
			if e.kind == 'o' && g.next()%4 == 0 {
				e.names, e.vals = append(e.names, g.fresh("x")), append(e.vals, &jv{kind: 's', s: g.fresh("f")})
			}
			g.rework(e, leaves)
		}
		switch g.next() % 6 {
		case 0:
			v.vals = append(v.vals, &jv{kind: 's', s: g.fresh("f")})
		case 1:
			v.vals = append([]*jv{{kind: 's', s: g.fresh("f")}}, v.vals...)
		case 2:
			for i, j := 0, len(v.vals)-1; i < j; i, j = i+1, j-1 {
				v.vals[i], v.vals[j] = v.vals[j], v.vals[i]
			}
		case 3:
			if len(v.vals) > 0 {
				i := int(g.next()) % len(v.vals)
				v.vals = append(v.vals[:i], v.vals[i+1:]...)
			}
		}
	}
}

// FuzzChainUndoArrays composes a redacting handler and a second handler
// on a PostToolUse MCP output of objects and arrays nested three deep.
// The first replaces strings and removes array elements. The second
// works from what it was given (by hand or with Merge) or from a stale
// copy of the original, and appends, prepends, reorders and removes
// elements and adds members to them. A handler that works from what it
// saw always composes, and its rewrite is the answer; a stale copy is
// refused when it holds a string the first handler replaced, or an
// element it removed, wherever it stands; a stale copy that holds
// neither composes.
func FuzzChainUndoArrays(f *testing.F) {
	f.Add([]byte{2, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0}, byte(1))
	f.Add([]byte{1, 2, 2, 0, 1, 0, 0, 5, 3, 1, 0, 4, 0, 0, 1}, byte(0))
	f.Add([]byte{2, 3, 1, 2, 0, 0, 0, 1, 2, 0, 3, 0, 1, 0, 0, 0, 9, 4, 2}, byte(2))
	f.Add(bytes.Repeat([]byte{2, 1, 0, 5, 3}, 12), byte(0))
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		g := &undoGen{data: data}
		base := &jv{kind: 'o', names: []string{"content"}, vals: []*jv{{kind: 'a'}}}
		for range 1 + int(g.next()%3) {
			base.vals[0].vals = append(base.vals[0].vals, g.value(1, true))
		}
		for i := range int(g.next() % 2) {
			base.names = append(base.names, fmt.Sprintf("extra%d", i))
			base.vals = append(base.vals, g.value(1, false))
		}
		secrets := map[string]bool{}
		var removed []*jv
		seen := base.clone()
		g.redact(seen, secrets, &removed)
		stale := mode%3 == 0
		var upd *jv
		if stale {
			upd = base.clone()
			g.rework(upd, false)
		} else {
			upd = seen.clone()
			g.rework(upd, true)
		}
		want := upd.String()
		// Must be refused: a replaced string back, or a removed element
		// back as it was.
		restored := false
		for s := range secrets {
			restored = restored || strings.Contains(want, fmt.Sprintf("%q", s))
		}
		for _, r := range removed {
			restored = restored || strings.Contains(want, r.String())
		}
		// May be refused: a string of a removed element back in an
		// element changed around it (known only by its members).
		leaked := restored
		for _, r := range removed {
			r.leaves(func(s string) { leaked = leaked || strings.Contains(want, fmt.Sprintf("%q", s)) })
		}
		first := postOut(func(*hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{UpdatedToolOutput: jsontext.Value(seen.String())}, nil
		})
		second := postOut(func(e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			if mode%3 == 2 {
				// Merge from what it was given, every member named.
				patch := map[string]jsontext.Value{}
				for i, n := range upd.names {
					patch[n] = jsontext.Value(upd.vals[i].String())
				}
				v, err := hook.Merge(e.ToolResponse, patch)
				return &hook.PostToolUseOutput{UpdatedToolOutput: v}, err
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: jsontext.Value(want)}, nil
		})
		in := postToolUse("mcp__s__t", base.String())
		var stdout, stderr bytes.Buffer
		code := hook.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr, hook.Chain(first, second))
		if leaked && !restored {
			return
		}
		if restored {
			if code != hook.ExitError || stdout.Len() > 0 || !strings.Contains(stderr.String(), "puts back what") {
				t.Fatalf("a redacted string is back (stale %v):\nbase %s\nseen %s\nupd  %s\nexit %d, stdout %s, stderr %s", stale, base, seen, want, code, stdout.String(), stderr.String())
			}
			return
		}
		if code != hook.ExitOK {
			t.Fatalf("refused an answer with no redacted string (stale %v):\nbase %s\nseen %s\nupd  %s\nexit %d, stderr %s", stale, base, seen, want, code, stderr.String())
		}
		if upd.String() != seen.String() && !strings.Contains(stdout.String(), want) {
			t.Fatalf("the answer is not the last rewrite:\nupd %s\nstdout %s", want, stdout.String())
		}
	})
}
