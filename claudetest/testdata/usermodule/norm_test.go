package main

import (
	"os"
	"testing"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
)

func TestMain(m *testing.M) { os.Exit(claudetest.Main(m)) }

func TestNormDeniesRm(t *testing.T) {
	claudetest.Need(t)
	norm := hooktest.BuildGo(t, ".")
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{"notes.txt": "keep me\n"},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{norm}, Name: "norm"}},
		Turns: []claudetest.Turn{
			{claudetest.Bash("rm notes.txt")},
			{claudetest.Bash("echo hi > hi.txt")},
		},
	})
	if res := r.Call(1).Result; res == nil || !res.IsError || res.Text != "PreToolUse:Bash hook error: norm: use git rm, so that it can be undone" {
		t.Errorf("the model was not told the rm was denied: %+v", res)
	}
	if got, _ := r.File("notes.txt"); got != "keep me\n" {
		t.Errorf("rm ran: notes.txt is %q", got)
	}
	if got, _ := r.File("hi.txt"); got != "hi\n" || r.Call(2).Result.IsError {
		t.Errorf("the other command did not run: hi.txt is %q, told %+v", got, r.Call(2).Result)
	}
	if got := r.Events(); len(got) != 2 || got[0] != "PreToolUse:Bash" {
		t.Errorf("hook events %q, want PreToolUse:Bash twice", got)
	}
}
