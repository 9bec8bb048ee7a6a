package main

// The test of docs/e2e.md's "Testing against the real Codex", with more
// checks; codextest's TestCodexInAUserModule runs it in a module of its own.

import (
	"os"
	"strings"
	"testing"

	"github.com/gohooks/hook/codextest"
	"github.com/gohooks/hook/hooktest"
)

func TestMain(m *testing.M) { os.Exit(codextest.Main(m)) } // loopback-only network

func TestNormDeniesRm(t *testing.T) {
	codextest.Need(t) // skip at once when Codex cannot run here
	norm := hooktest.BuildGo(t, ".")
	r := codextest.Run(t, codextest.Session{
		Files: map[string]string{"notes.txt": "keep me\n"},
		Hooks: []codextest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{norm}}},
		Turns: []codextest.Turn{{codextest.Bash("rm notes.txt")}, {codextest.Bash("echo hi > hi.txt")}},
	})
	if got := r.HookStatuses("PreToolUse"); len(got) != 2 || got[0] != "Blocked" || got[1] != "Completed" {
		t.Errorf("Codex reported %v", got)
	}
	if res := r.Call(1).Result; res == nil || !strings.Contains(res.Text, "blocked by PreToolUse hook") {
		t.Errorf("the model was not told the rm was denied: %+v", res)
	}
	if got, _ := r.File("notes.txt"); got != "keep me\n" {
		t.Errorf("rm ran: notes.txt is %q", got)
	}
	if got, _ := r.File("hi.txt"); got != "hi\n" {
		t.Errorf("the other command did not run: hi.txt is %q", got)
	}

	// Beyond the docs: the exact text, and the events in order.
	if res := r.Call(1).Result; res == nil || res.Text != "Command blocked by PreToolUse hook: norm: use git rm, so that it can be undone. Command: rm notes.txt" {
		t.Errorf("the model was told %+v", res)
	}
	if got := r.Events(); len(got) != 2 || got[0] != "PreToolUse:Bash" || got[1] != "PreToolUse:Bash" {
		t.Errorf("hook events %q, want PreToolUse:Bash twice", got)
	}
	if h, ok := r.Call(2).Hook("hook", "PreToolUse"); !ok || h.Code != 0 || len(h.Out) != 0 {
		t.Errorf("the hook's run for echo: %+v", h)
	}
}
