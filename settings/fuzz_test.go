package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzAddRemove checks on any file that Parse accepts: Add succeeds, the
// result parses and lists the new handler, Add again changes nothing, and
// Remove gives back the original bytes, unless the file held an empty
// "hooks" object or event array that the removal took away; RemoveKeeping,
// told the Containers Add found, gives them back in every case.
func FuzzAddRemove(f *testing.F) {
	files, _ := filepath.Glob("testdata/shapes/*.json")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b, "PreToolUse", "Bash", "/bin/x")
		}
	}
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{}]}]}}`), "Stop", "", "y")
	f.Add([]byte("\xef\xbb\xbf"), "Stop", "", "y")
	f.Add([]byte(`{"hook\u0073":{"PreTool\u0055se":[{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/x"}]}]}}`), "PreToolUse", "Bash", "/bin/x")
	f.Fuzz(func(t *testing.T, data []byte, event, matcher, command string) {
		before, err := Parse(data)
		if err != nil {
			return
		}
		e := Entry{Event: event, Matcher: matcher, Handler: Handler{Command: command, Args: []string{matcher}}}
		if e.check() != nil {
			return
		}
		out, changed, err := Add(data, e)
		if err != nil {
			t.Fatalf("Add: %v", err)
		}
		after, err := Parse(out)
		if err != nil {
			t.Fatalf("Add wrote a file Parse refuses: %v\n%s", err, out)
		}
		found := false
		for _, h := range after {
			found = found || h.Event == event && h.Matcher == matcher && h.Handler.Same(e.Handler)
		}
		if !found {
			t.Fatalf("the added handler is not listed:\n%s", out)
		}
		if !changed {
			if string(out) != string(data) {
				t.Fatal("unchanged, but the bytes differ")
			}
			return
		}
		if len(after) != len(before)+1 {
			t.Fatalf("%d handlers after Add, %d before", len(after), len(before))
		}
		again, changed, err := Add(out, e)
		if err != nil || changed || string(again) != string(out) {
			t.Fatalf("Add twice changed the file (%v)", err)
		}
		cs, err := Containers(data, e)
		if err != nil {
			t.Fatalf("Containers: %v", err)
		}
		kept, n, err := RemoveKeeping(out, e, cs)
		if err != nil || n != 1 || string(kept) != string(data) {
			t.Fatalf("RemoveKeeping: %d, %v; did not restore the original:\n%q\n%q", n, err, data, kept)
		}
		back, n, err := Remove(out, e)
		if err != nil || n != 1 {
			t.Fatalf("Remove: %d, %v", n, err)
		}
		if string(back) != string(data) && !emptyContainer(data, event) {
			t.Fatalf("Remove did not restore the original:\n%q\n%q", data, back)
		}
	})
}

// emptyContainer reports whether data (parsed fine) has an empty "hooks"
// object, an empty event array for event, or no value at all.
func emptyContainer(data []byte, event string) bool {
	t, err := parseTree(data)
	if err != nil || t.root == nil {
		return true
	}
	if t.hooks == nil {
		return false
	}
	if len(t.hooks.members) == 0 {
		return true
	}
	ev, _ := t.hooks.get(event)
	return ev != nil && len(ev.elems) == 0
}
