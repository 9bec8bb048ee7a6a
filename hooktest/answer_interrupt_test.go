package hooktest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// TestCheckAnswerInterruptIsIgnored: Claude Code ignores an Interrupt
// hook's exit code and answer, so any stdout or an exit 2 is a no-effect
// answer there; silence is fine. Codex reads an Interrupt answer's
// systemMessage, so there it passes.
func TestCheckAnswerInterruptIsIgnored(t *testing.T) {
	in := hooktest.NewEvent("Interrupt")
	assert.NoError(t, hooktest.CheckAnswer(in, 0, nil, nil))
	assert.NoError(t, hooktest.CheckAnswer(in, 1, nil, []byte("log unreachable\n")))
	for _, c := range []struct {
		code   int
		stdout string
		detail string
	}{
		{0, `{"systemMessage":"stopped"}`, "ignores an Interrupt hook's answer"},
		{0, "stopped", "ignores an Interrupt hook's answer"},
		{2, "", "exit code 2 has no effect on Interrupt"},
	} {
		vs := violationsOf(t, hooktest.CheckAnswer(in, c.code, []byte(c.stdout), []byte("x\n")))
		require.Len(t, vs, 1, "%d %q", c.code, c.stdout)
		assert.Equal(t, hooktest.RuleNoEffect, vs[0].Rule)
		assert.Contains(t, vs[0].Detail, c.detail)
	}

	var codex []byte
	for _, f := range hooktest.CodexFixtures() {
		if f.Event == "Interrupt" {
			codex = f.JSON
		}
	}
	require.NotNil(t, codex)
	assert.NoError(t, hooktest.CheckAnswer(codex, 0, []byte(`{"systemMessage":"stopped"}`), nil))
}
