package e2e_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
)

// TestOutputCap: Claude Code passes a hook's text to the model whole up
// to 10,000 characters. Over that it saves the text to a file in the
// session's folder and the model gets, in place of the text,
//
//	<persisted-output>
//	Output too large (9.8KB). Full output saved to: <path>
//
//	Preview (first 2KB):
//	<the first 2,000 characters>
//	...
//	</persisted-output>
//
// (spec §5.3; docs/e2e.md). The size counts characters, not bytes: the
// text here is 10,001 two-byte characters.
func TestOutputCap(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	// text returns n characters: a start mark, filler and an end mark, so
	// that the test can tell a whole text from a preview.
	text := func(tag string, n int) string {
		start, end := "START-"+tag+"-", "-END-"+tag
		return start + strings.Repeat("é", n-len(start)-len(end)) + end
	}
	atCap := text("AT", 10000)
	overCap := text("OVER", 10001)
	require.Equal(t, 10000, len([]rune(atCap)))
	require.Equal(t, 10001, len([]rune(overCap)))
	answer := func(event, s string) string {
		return fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":%q,"additionalContext":%q}}`, event, s)
	}
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{{claudetest.Bash("echo hi")}},
		Hooks: []claudetest.Hook{
			{Event: "UserPromptSubmit", Name: "atcap", Command: []string{"printf", "%s", answer("UserPromptSubmit", atCap)}},
			{Event: "PostToolUse", Matcher: "Bash", Name: "overcap", Command: []string{"printf", "%s", answer("PostToolUse", overCap)}},
		},
	})
	hookRuns(t, r, "atcap", "UserPromptSubmit", 1)
	hookRuns(t, r, "overcap", "PostToolUse", 1)
	assert.True(t, r.Told(atCap), "10,000 characters reach the model whole")
	assert.False(t, r.Told(overCap), "10,001 characters are not passed whole")
	assert.False(t, r.Told("-END-OVER"), "the end is cut")

	saved := regexp.MustCompile(`PostToolUse:Bash hook additional context: <persisted-output>\nOutput too large \(9\.8KB\)\. Full output saved to: ([^\n]+)\n\nPreview \(first 2KB\):\n`)
	var path, rest string
	for _, req := range r.Requests {
		var s string
		for _, m := range regexp.MustCompile(`"text":("(?:[^"\\]|\\.)*")`).FindAllSubmatch(req, -1) {
			s = str(t, m[1])
			if p := saved.FindStringSubmatchIndex(s); p != nil {
				path, rest = s[p[2]:p[3]], s[p[1]:]
			}
		}
	}
	require.NotEmpty(t, path, "no request holds the persisted-output notice")
	preview := overCap[:len("START-OVER-")+len("é")*(2000-len("START-OVER-"))] // 2,000 characters
	assert.Equal(t, preview+"\n...\n</persisted-output>", rest, "the model gets the first 2,000 characters and no more")
	whole, err := os.ReadFile(path)
	require.NoError(t, err, "the saved file")
	assert.Equal(t, overCap, string(whole), "the file holds the whole text")
}
