package e2e_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	hk "github.com/gohooks/hook"
	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hookhttp"
)

// TestLongContext: a context longer than Claude Code passes on whole
// (hook.MaxTextChars) reaches the model, under the Server's default
// LongText policy, as its head and a line naming a file that holds every
// character, not as Claude Code's 2,000-character preview; for a command
// hook (SessionStart) and an http hook (UserPromptSubmit) alike. Beside
// them: the client counts UTF-16 code units (4,998 emoji are over its
// cap, which an answer of exactly 10,000 units through the library is
// not), and LongTextTruncate's marker reaches the model in place of the
// cut.
func TestLongContext(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	emoji := func(n int) string { return strings.Repeat("😀", n) }
	raw := func(event, s string) []string {
		return []string{"printf", "%s", fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":%q,"additionalContext":%q}}`, event, s)}
	}
	web := hookhttp.Handler(hk.HandlerFunc(func(_ context.Context, ev *hk.Event) (hk.Output, error) {
		return &hk.UserPromptSubmitOutput{AdditionalContext: longText("UPS", 30000)}, nil
	}), nil)
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{{claudetest.Bash("echo hi")}},
		Hooks: []claudetest.Hook{
			{Event: "SessionStart", Name: "spill", Command: hook("longcontext", "-n", "30000", "-tag", "SS")},
			{Event: "UserPromptSubmit", Name: "web", Handler: web},
			{Event: "PreToolUse", Matcher: "Bash", Name: "truncate", Command: hook("longcontext", "-n", "10001", "-tag", "PRE", "-policy", "truncate")},
			{Event: "PostToolUse", Matcher: "Bash", Name: "atcap", Command: hook("longcontext", "-n", "10000", "-tag", "POST")},
			{Event: "PostToolUse", Matcher: "Bash", Name: "astral", Command: raw("PostToolUse", "ASTRAL"+emoji(4998))},
		},
	})
	session := str(t, input(t, hookRuns(t, r, "spill", "SessionStart", 1)[0], "session_id"))
	hookRuns(t, r, "web", "UserPromptSubmit", 1)
	hookRuns(t, r, "truncate", "PreToolUse", 1)
	hookRuns(t, r, "atcap", "PostToolUse", 1)
	hookRuns(t, r, "astral", "PostToolUse", 1)
	told := requestTexts(t, r)

	notice := regexp.MustCompile(`\n\n\[Cut here: this text is 30000 characters, over the 10000 Claude Code passes on\. The whole text is in the file ([^\n]+?); read it for the rest\.\]`)
	for _, tag := range []string{"SS", "UPS"} {
		whole := longText(tag, 30000)
		var head, path string
		for _, s := range told {
			i := strings.Index(s, "START-"+tag+"\n")
			if i < 0 {
				continue
			}
			m := notice.FindStringSubmatchIndex(s[i:])
			require.NotNil(t, m, "%s: the model got the head without the line naming the file", tag)
			head, path = s[i:i+m[0]], s[i+m[2]:i+m[3]]
			assert.LessOrEqual(t, utf16Len(head+s[i+m[0]:i+m[1]]), hk.MaxTextChars, "%s: the answer fits the cap", tag)
			break
		}
		require.NotEmpty(t, path, "%s: the model was not told the context", tag)
		assert.True(t, strings.HasPrefix(whole, head), "%s: the model got the head of the text", tag)
		assert.Greater(t, utf16Len(head), hk.MaxTextChars/2, "%s: the head is most of what fits", tag)
		assert.True(t, strings.HasSuffix(head, "\n"), "%s: the head ends at a line break", tag)
		assert.False(t, r.Told("-"+tag+"-additionalContext.txt"), "%s: Claude Code did not cut it itself", tag)
		sessionDir := filepath.Join(r.Home, ".claude", "projects")
		assert.True(t, strings.HasPrefix(path, sessionDir+string(filepath.Separator)) && strings.Contains(path, string(filepath.Separator)+filepath.Join(session, "hook-context")+string(filepath.Separator)), "%s: the file is in the session's folder: %s", tag, path)
		b, err := os.ReadFile(path)
		require.NoError(t, err, "%s: the file the model was told of", tag)
		assert.True(t, string(b) == whole, "%s: the file holds the whole text (%d bytes, want %d)", tag, len(b), len(whole))
		t.Logf("%s: the model got a head of %d characters and the file %s", tag, utf16Len(head), path)
	}

	// Counting: the library's answer of exactly 10,000 code units went
	// whole; "ASTRAL" and 4,998 emoji (10,002 code units, 5,004 code
	// points) did not.
	atCap := longText("POST", 10000)
	assert.True(t, containsAny(told, atCap), "10,000 code units through the library reach the model whole")
	assert.False(t, containsAny(told, "ASTRAL"+emoji(4998)), "the client counts UTF-16 code units: 5,004 code points, 10,002 units, are cut")
	assert.True(t, containsAny(told, "ASTRAL"+emoji(100)), "the astral text's preview reached the model")
	assert.True(t, r.Told("<persisted-output>"), "the client's own cut, for the raw answer over the cap")

	// LongTextTruncate: the head and the marker, nothing of the client's.
	pre := longText("PRE", 10001)
	var cut string
	for _, s := range told {
		if i := strings.Index(s, "START-PRE\n"); i >= 0 {
			cut = s[i:]
		}
	}
	require.NotEmpty(t, cut, "the truncated context reached the model")
	m := regexp.MustCompile(`\n\n\[Cut here: the last (\d+) of this text's 10001 characters were left out, over the 10000 Claude Code passes on\.\]`).FindStringSubmatchIndex(cut)
	require.NotNil(t, m, "the marker follows the head")
	assert.True(t, strings.HasPrefix(pre, cut[:m[0]]), "the head is the text's head")
	assert.Equal(t, fmt.Sprint(10001-utf16Len(cut[:m[0]])), cut[m[2]:m[3]], "the marker counts what was cut")
	assert.False(t, strings.Contains(cut, "END-PRE"), "the end was cut")
}

// requestTexts returns every "text" string of the requests to the model,
// decoded.
func requestTexts(t *testing.T, r *claudetest.Result) []string {
	t.Helper()
	var out []string
	re := regexp.MustCompile(`"text":("(?:[^"\\]|\\.)*")`)
	for _, req := range r.Requests {
		for _, m := range re.FindAllSubmatch(req, -1) {
			out = append(out, str(t, m[1]))
		}
	}
	return out
}

func containsAny(texts []string, sub string) bool {
	for _, s := range texts {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// utf16Len is the length JavaScript gives s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// longText is e2e/testdata/longcontext's Text: a text of exactly n
// UTF-16 code units that starts with "START-<tag>\n" and ends with
// "END-<tag>", of numbered lines holding two-byte, three-byte and astral
// characters, every other line ended by CRLF. The hook prints it with
// -print.
func longText(tag string, n int) string {
	argv := hook("longcontext", "-n", strconv.Itoa(n), "-tag", tag, "-print")
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		panic(fmt.Sprintf("longcontext -print: %v", err))
	}
	return string(out)
}
