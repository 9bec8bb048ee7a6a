package main

// The test of the README's "Testing against the real Claude Code", with
// two more checks; claudetest's TestAUserModule runs it in a module of
// its own.

import (
	"os"
	"testing"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
)

func TestMain(m *testing.M) { os.Exit(claudetest.Main(m)) } // loopback-only network

func TestNormDeniesRm(t *testing.T) {
	claudetest.Need(t) // skip at once when Claude Code cannot run here
	norm := hooktest.BuildGo(t, ".")
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{"notes.txt": "keep me\n"},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{norm}}},
		Turns: []claudetest.Turn{{claudetest.Bash("rm notes.txt")}, {claudetest.Bash("echo hi > hi.txt")}},
	})
	if res := r.Call(1).Result; res == nil || !res.IsError {
		t.Errorf("the model was not told the rm was denied: %+v", res)
	}
	if got, _ := r.File("notes.txt"); got != "keep me\n" {
		t.Errorf("rm ran: notes.txt is %q", got)
	}
	if got, _ := r.File("hi.txt"); got != "hi\n" {
		t.Errorf("the other command did not run: hi.txt is %q", got)
	}

	// Beyond the README: the exact text, and the events in order.
	if res := r.Call(1).Result; res == nil || res.Text != "PreToolUse:Bash hook error: norm: use git rm, so that it can be undone" {
		t.Errorf("the model was told %+v", res)
	}
	if got := r.Events(); len(got) != 2 || got[0] != "PreToolUse:Bash" || got[1] != "PreToolUse:Bash" {
		t.Errorf("hook events %q, want PreToolUse:Bash twice", got)
	}
	if h, ok := r.Call(2).Hook("hook", "PreToolUse"); !ok || h.Code != 0 || len(h.Out) != 0 {
		t.Errorf("the hook's run for echo: %+v", h)
	}
}
