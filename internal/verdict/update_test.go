package verdict

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRewrite(t *testing.T) {
	in := []byte(`{"command":"ls","n":2.50,"s":"K\u00f6ln"}`)
	for _, c := range []struct {
		name      string
		in, out   string
		byBytes   Update // as for a hook built with the library
		asClaude  Update // as Claude Code reads a hook in any language
		nilInput  bool
		nilOutput bool
	}{
		{name: "none", nilOutput: true, byBytes: NoUpdate, asClaude: NoUpdate},
		{name: "the same bytes", out: string(in), byBytes: SameUpdate, asClaude: SameUpdate},
		{name: "the same bytes, other white space", out: `{ "command": "ls", "n": 2.50, "s": "K\u00f6ln" }`, byBytes: SameUpdate, asClaude: SameUpdate},
		{name: "the same value respelled", out: `{"command":"ls","n":2.5,"s":"Köln"}`, byBytes: RealUpdate, asClaude: SameUpdate},
		{name: "the same value reordered", out: `{"s":"Köln","n":2.5,"command":"ls"}`, byBytes: RealUpdate, asClaude: SameUpdate},
		{name: "a member changed", out: `{"command":"ls -l","n":2.50,"s":"K\u00f6ln"}`, byBytes: RealUpdate, asClaude: RealUpdate},
		{name: "a member added", out: `{"command":"ls","n":2.50,"s":"K\u00f6ln","x":1}`, byBytes: RealUpdate, asClaude: RealUpdate},
		{name: "a member lost", out: `{"command":"ls","n":2.50}`, byBytes: RealUpdate, asClaude: RealUpdate},
		{name: "no input to compare with", nilInput: true, out: `{}`, byBytes: RealUpdate, asClaude: RealUpdate},
	} {
		i, o := in, []byte(c.out)
		if c.nilInput {
			i = nil
		}
		if c.nilOutput {
			o = nil
		}
		assert.Equal(t, c.byBytes, Rewrite(i, o, false), c.name)
		assert.Equal(t, c.asClaude, Rewrite(i, o, true), c.name)
	}
}

func TestCountsNoOps(t *testing.T) {
	var c Counts
	c.Add(0, true, RealUpdate, false, false)
	c.Add(0, true, SameUpdate, false, false)
	c.Add(0, true, SameUpdate, true, false)
	c.Add(2, false, SameUpdate, false, false) // exit 2: Claude Code ignores stdout
	c.Add(0, false, NoUpdate, false, false)
	c.Add(1, false, NoUpdate, false, true)
	assert.Equal(t, Counts{Answered: 5, Silent: 1, Updated: 1, NoOps: 2, Blocked: 2, FailedOpen: 1}, c)
}

func TestFailsOpen(t *testing.T) {
	assert.False(t, FailsOpen(0, false))
	assert.True(t, FailsOpen(0, true), "an answer ignored is no answer")
	assert.False(t, FailsOpen(2, true), "exit 2 blocks whatever stdout holds")
	assert.True(t, FailsOpen(1, false))
	assert.True(t, FailsOpen(3, false))
	assert.True(t, FailsOpen(-1, false), "a kill or a timeout")
}
