package transcript_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/transcript"
)

// readAll reads every entry of data.
func readAll(t *testing.T, r io.Reader) []*transcript.Entry {
	t.Helper()
	rd := transcript.NewReader(r)
	var out []*transcript.Entry
	for rd.Next() {
		out = append(out, rd.Entry())
	}
	require.NoError(t, rd.Err())
	return out
}

func load(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

// TestRealTranscriptIsLossless reads the transcripts Claude Code wrote:
// every line is an entry, and the entries' Raw are the file's bytes.
func TestRealTranscriptIsLossless(t *testing.T) {
	for _, name := range []string{"testdata/real/session.jsonl", "testdata/real/subagent.jsonl"} {
		data := load(t, name)
		entries := readAll(t, bytes.NewReader(data))
		var back bytes.Buffer
		types := map[transcript.Type]int{}
		for i, e := range entries {
			require.NoError(t, e.Err, "%s line %d", name, e.Line)
			assert.Equal(t, i+1, e.Line)
			back.Write(e.Raw)
			back.WriteByte('\n')
			types[e.Type]++
			if e.Type == transcript.TypeUser || e.Type == transcript.TypeAssistant {
				require.NotNil(t, e.Message, "%s line %d", name, e.Line)
				assert.Equal(t, string(e.Type), e.Message.Role)
				assert.NotEmpty(t, e.UUID)
				assert.False(t, e.Time().IsZero(), "timestamp %q", e.Timestamp)
			} else {
				assert.Nil(t, e.Message, "%s line %d (%s)", name, e.Line, e.Type)
			}
		}
		assert.Equal(t, string(data), back.String(), name)
		assert.Positive(t, types[transcript.TypeUser], name)
		assert.Positive(t, types[transcript.TypeAssistant], name)
		assert.Positive(t, types[transcript.TypeAttachment], name)
	}
}

func TestRealSession(t *testing.T) {
	f, err := os.Open("testdata/real/session.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sum, err := transcript.Summarize(f)
	require.NoError(t, err)
	assert.Empty(t, sum.Errors)
	assert.False(t, sum.Truncated())
	type call struct {
		id, name string
		isError  bool
		text     string
	}
	var got []call
	for _, c := range sum.Calls {
		require.NotNil(t, c.Result, c.ID)
		assert.False(t, c.Sidechain)
		assert.Greater(t, c.Result.Line, c.Line, "the result follows the call")
		text := c.Result.Text()
		if len(text) > 40 {
			text = text[:40]
		}
		got = append(got, call{c.ID, c.Name, c.Result.IsError, text})
	}
	assert.Equal(t, []call{
		{"toolu_claudetest_1", "Write", false, "File created successfully at: /home/dev/"},
		{"toolu_claudetest_2", "Agent", false, "[Subagent hand-back] The text below is t"},
		{"toolu_claudetest_3", "Bash", false, "hello"},
		{"toolu_claudetest_4", "Read", false, "1\talpha\n2\tbeta\n3\t"},
		{"toolu_claudetest_5", "Edit", false, "The file /home/dev/proj/out.go has been "},
		{"toolu_claudetest_6", "Edit", true, "<tool_use_error>String to replace not fo"},
		{"toolu_claudetest_7", "mcp__probe__listen_here", false, "heard"},
		{"toolu_claudetest_8", "Bash", true, "Exit code 3"},
	}, got)
	assert.Equal(t, transcript.Files{Edited: []string{"/home/dev/proj/out.go"}, Read: []string{"/home/dev/proj/notes.txt"}}, sum.Files(),
		"the failed Edit of notes.txt touched nothing")
	assert.Equal(t, "Done: wrote out.go.", sum.LastAssistantText())
	assert.Equal(t, 3, sum.LastPrompt, `"go"; the Stop hook feedback later is a meta entry, not a prompt`)
	cmd, ok := sum.Call("toolu_claudetest_3").Command()
	assert.True(t, ok)
	assert.Equal(t, "echo hello", cmd)
	_, ok = sum.Call("toolu_claudetest_4").Command()
	assert.False(t, ok)
	assert.Nil(t, sum.Call("toolu_nope"))

	// The Agent call names its subagent, whose transcript is subagent.jsonl.
	sub, err := os.Open("testdata/real/subagent.jsonl")
	require.NoError(t, err)
	defer sub.Close()
	first := readAll(t, sub)[0]
	assert.Equal(t, first.AgentID, sum.Call("toolu_claudetest_2").Result.AgentID)
	assert.Regexp(t, `^a[0-9a-f]{16}$`, first.AgentID)
	for _, c := range sum.Calls[2:] {
		assert.Empty(t, c.Result.AgentID, c.Name)
	}
}

func TestSubagentPath(t *testing.T) {
	session := filepath.Join("home", "dev", ".claude", "projects", "-home-dev-proj", "5d3f.jsonl")
	assert.Equal(t, filepath.Join("home", "dev", ".claude", "projects", "-home-dev-proj", "5d3f", "subagents", "agent-a882a806d90a12026.jsonl"),
		transcript.SubagentPath(session, "a882a806d90a12026"))
	for _, bad := range []string{"", ".", "..", "../x", "a/b", `a\b`, "a..b", "c:x"} {
		assert.Empty(t, transcript.SubagentPath(session, bad), "%q", bad)
	}
}

func TestRealSubagent(t *testing.T) {
	sum, err := transcript.SummarizeFile("testdata/real/subagent.jsonl")
	require.NoError(t, err)
	assert.Equal(t, "ok", sum.LastAssistantText(), "a subagent's own transcript: its text")
	assert.Zero(t, sum.LastPrompt, "a subagent's prompt is on its side chain")
	f, err := os.Open("testdata/real/subagent.jsonl")
	require.NoError(t, err)
	defer f.Close()
	for _, e := range readAll(t, f) {
		if e.Message != nil {
			assert.True(t, e.IsSidechain)
			assert.Regexp(t, `^a[0-9a-f]{16}$`, e.AgentID)
		}
	}
}

func TestPitfalls(t *testing.T) {
	data := load(t, "testdata/pitfalls.jsonl")
	entries := readAll(t, bytes.NewReader(data))
	byLine := map[int]*transcript.Entry{}
	var lines []int
	for _, e := range entries {
		byLine[e.Line] = e
		lines = append(lines, e.Line)
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23}, lines, "blank lines 21 and 22 are skipped")

	assert.Equal(t, transcript.TypeSummary, byLine[1].Type)
	assert.Equal(t, "Fixing the flaky parser test", byLine[1].Summary)
	assert.Equal(t, "u0", byLine[1].LeafUUID)
	assert.Equal(t, transcript.TypeFileHistorySnapshot, byLine[2].Type)
	snap, ok := byLine[2].Member("snapshot")
	assert.True(t, ok)
	assert.Contains(t, string(snap), `"trackedFileBackups":{}`)

	assert.True(t, byLine[3].IsPrompt())
	assert.Equal(t, "fix the parser", byLine[3].Text())
	assert.Equal(t, "Look at parse.go first.", byLine[4].Message.Content[0].Thinking)
	assert.Empty(t, byLine[4].Text())
	red := byLine[5].Message.Content[0]
	assert.Equal(t, "redacted_thinking", red.Type)
	assert.JSONEq(t, `{"type":"redacted_thinking","data":"cmVk"}`, string(red.Raw))
	res := byLine[8].ToolResults()
	require.Len(t, res, 1)
	assert.Equal(t, "package parse", res[0].ResultText(), "the image is left out of the text")
	assert.Contains(t, string(res[0].Content), `"media_type":"image/png"`)
	assert.JSONEq(t, `{"type":"text","file":{"filePath":"/home/dev/proj/parse.go"}}`, string(byLine[8].ToolUseResult))

	for _, n := range []int{9, 10} {
		var le *transcript.LineError
		require.ErrorAs(t, byLine[n].Err, &le, "line %d", n)
		assert.Equal(t, n, le.Line)
		assert.False(t, le.Truncated, "line %d is not the last", n)
		assert.Equal(t, data[lineStart(data, n):lineStart(data, n)+len(byLine[n].Raw)], []byte(byLine[n].Raw), "the bad line is kept")
		assert.Empty(t, byLine[n].Type)
	}

	uses := byLine[11].ToolUses()
	require.Len(t, uses, 2, "server_tool_use is not a client tool call")
	assert.Equal(t, "server_tool_use", byLine[11].Message.Content[2].Type)
	assert.Equal(t, transcript.Type("hologram"), byLine[12].Type)
	payload, ok := byLine[12].Member("payload")
	assert.True(t, ok)
	assert.Equal(t, `{"deep":[1,2,3]}`, string(payload))
	future, ok := byLine[13].Member("futureMember")
	assert.True(t, ok)
	assert.Equal(t, `{"x":1}`, string(future))
	_, ok = byLine[13].Member("nope")
	assert.False(t, ok)
	assert.Equal(t, "compact_boundary", byLine[14].Subtype)
	assert.True(t, byLine[15].IsMeta)
	assert.False(t, byLine[15].IsPrompt())
	assert.Empty(t, byLine[17].Text(), "a short text saved empty")
	assert.Empty(t, byLine[18].Message.Content)
	assert.True(t, byLine[19].IsSidechain)
	assert.Equal(t, "a0123456789abcdef", byLine[19].AgentID)

	assert.True(t, byLine[20].IsCompactSummary)
	assert.False(t, byLine[20].IsPrompt(), "a compaction's summary starts no turn")

	var le *transcript.LineError
	require.ErrorAs(t, byLine[23].Err, &le)
	assert.True(t, le.Truncated, "the unfinished last line")
	assert.Contains(t, le.Error(), "line 23: unfinished last line")

	sum, err := transcript.Summarize(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, 21, sum.Entries)
	require.Len(t, sum.Errors, 3)
	assert.True(t, sum.Truncated())
	assert.Equal(t, "All fixed.", sum.LastAssistantText(), "empty entries after it are passed over; the subagent's text is apart")
	assert.Equal(t, 3, sum.LastPrompt)
	assert.Equal(t, transcript.Files{
		Edited: []string{"/home/dev/proj/nb.ipynb", "/home/dev/proj/side.go"},
		Read:   []string{"/home/dev/proj/parse.go"},
	}, sum.Files(), "the failed MultiEdit touched nothing; the subagent's Write without a result yet counts")
	require.Len(t, sum.Calls, 4)
	assert.True(t, sum.Call("toolu_2").Result.IsError)
	assert.Equal(t, "Notebook updated", sum.Call("toolu_3").Result.Text())
	assert.True(t, sum.Call("toolu_4").Sidechain)
	assert.Nil(t, sum.Call("toolu_4").Result)
}

// lineStart returns the offset of line n (from 1) in data.
func lineStart(data []byte, n int) int {
	off := 0
	for i := 1; i < n; i++ {
		off += bytes.IndexByte(data[off:], '\n') + 1
	}
	return off
}

// TestCRLFAndBOM: the same transcript with CRLF line endings and a byte
// order mark reads the same.
func TestCRLFAndBOM(t *testing.T) {
	data := load(t, "testdata/real/session.jsonl")
	crlf := append([]byte("\uFEFF"), bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))...)
	a := readAll(t, bytes.NewReader(data))
	b := readAll(t, bytes.NewReader(crlf))
	require.Equal(t, len(a), len(b))
	for i := range a {
		require.NoError(t, b[i].Err)
		assert.Equal(t, string(a[i].Raw), string(b[i].Raw))
	}
}

// TestChunkBoundaries reads through a reader that returns one byte at a
// time and one that fails with the last bytes.
func TestChunkBoundaries(t *testing.T) {
	data := load(t, "testdata/pitfalls.jsonl")
	a := readAll(t, bytes.NewReader(data))
	b := readAll(t, iotest.OneByteReader(bytes.NewReader(data)))
	c := readAll(t, iotest.DataErrReader(bytes.NewReader(data)))
	require.Equal(t, len(a), len(b))
	require.Equal(t, len(a), len(c))
	for i := range a {
		assert.Equal(t, a[i].Raw, b[i].Raw)
		assert.Equal(t, a[i].Raw, c[i].Raw)
		assert.Equal(t, a[i].Err == nil, b[i].Err == nil)
	}
}

// TestReadError: a failing input stops the reader with its error, after
// the lines read before it.
func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"+`{"type":"assi`), iotest.ErrReader(boom))
	rd := transcript.NewReader(r)
	require.True(t, rd.Next())
	assert.Equal(t, "hi", rd.Entry().Text())
	assert.False(t, rd.Next(), "the half line before the failure is not an entry")
	assert.ErrorIs(t, rd.Err(), boom)
	assert.Nil(t, rd.Entry())
	assert.False(t, rd.Next())
	_, err := transcript.SummarizeFile("testdata/none.jsonl")
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = transcript.SummarizeFile("testdata")
	assert.ErrorContains(t, err, "is not a regular file")
}

// TestTruncatedAnywhere cuts the real transcript's last lines at every
// byte: the entries before the cut are whole, and the cut line is either
// whole (cut right after it) or a Truncated error, never a failure.
func TestTruncatedAnywhere(t *testing.T) {
	all := load(t, "testdata/real/session.jsonl")
	// From the last assistant text on: the stop hook's notes, the cost.
	last := 0
	for _, e := range readAll(t, bytes.NewReader(all)) {
		if e.Type == transcript.TypeAssistant {
			last = e.Line
		}
	}
	data := all[lineStart(all, last-1):]
	whole := readAll(t, bytes.NewReader(data))
	require.Equal(t, transcript.TypeAssistant, whole[1].Type)
	start := lineStart(data, 2)
	for cut := start; cut < len(data); cut++ {
		got := readAll(t, bytes.NewReader(data[:cut]))
		for i, e := range got {
			if i < len(got)-1 {
				require.NoError(t, e.Err, "cut %d line %d", cut, e.Line)
				continue
			}
			if e.Err != nil {
				var le *transcript.LineError
				require.ErrorAs(t, e.Err, &le)
				require.True(t, le.Truncated, "cut %d", cut)
			} else {
				require.Equal(t, string(whole[i].Raw), string(e.Raw), "cut %d", cut)
			}
		}
	}
}

func TestOddLines(t *testing.T) {
	in := strings.Join([]string{
		`42`,
		`null`,
		`{"type":"user"} {"type":"user"}`,
		`{"type":"assistant","type":"user","message":{"role":"user","content":"dup: the last wins"}}`,
		`{"type":"user","message":{"role":"user","content":"\ud800 lone"}}`,
		`{"type":"user","message":"not an object"}`,
		`{"type":"assistant","isSidechain":"yes","message":{"role":"assistant","content":[1,"x",{"type":"text","text":7}]}}`,
		`{}`,
	}, "\n")
	es := readAll(t, strings.NewReader(in))
	require.Len(t, es, 8)
	for _, e := range es[:3] {
		assert.Error(t, e.Err, "line %d", e.Line)
	}
	assert.Equal(t, transcript.TypeUser, es[3].Type)
	assert.Equal(t, "dup: the last wins", es[3].Text())
	assert.Equal(t, "\uFFFD lone", es[4].Text(), "a lone surrogate reads as U+FFFD")
	assert.Contains(t, string(es[4].Raw), `\ud800`, "and stays in Raw")
	assert.Nil(t, es[5].Message)
	assert.False(t, es[6].IsSidechain, "a member of the wrong kind is left empty")
	assert.Len(t, es[6].Message.Content, 3)
	assert.Empty(t, es[6].Text())
	assert.Empty(t, es[7].Type)
	assert.NoError(t, es[7].Err)
}
