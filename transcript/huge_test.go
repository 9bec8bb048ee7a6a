package transcript_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/transcript"
)

// hugeTranscript returns a transcript whose second line is a tool result
// holding an image of n base64 bytes.
func hugeTranscript(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_big","name":"Read","input":{"file_path":"/home/dev/proj/shot.png"}}]}}` + "\n")
	b.WriteString(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_big","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`)
	b.WriteString(strings.Repeat("QUJD", n/4))
	b.WriteString(`"}}]}]}}` + "\n")
	b.WriteString(`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"after the image"}]}}` + "\n")
	return b.Bytes()
}

// TestFiftyMegabyteLine reads a 50 MB line whole, with the default limit,
// and the lines after it.
func TestFiftyMegabyteLine(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: allocates some 200 MB")
	}
	data := hugeTranscript(50 << 20)
	sum, err := transcript.Summarize(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Empty(t, sum.Errors)
	c := sum.Call("toolu_big")
	require.NotNil(t, c)
	require.NotNil(t, c.Result)
	assert.Greater(t, len(c.Result.Content), 50<<20)
	assert.Empty(t, c.Result.Text(), "an image has no text")
	assert.Equal(t, "after the image", sum.LastAssistantText())
}

// TestLineOverTheLimit: a line over the limit is read past and reported;
// the lines around it are read.
func TestLineOverTheLimit(t *testing.T) {
	data := hugeTranscript(1 << 20)
	for _, r := range []func() *transcript.Reader{
		func() *transcript.Reader { return transcript.NewReader(bytes.NewReader(data)) },
		func() *transcript.Reader {
			return transcript.NewReader(bytes.NewReader(bytes.TrimSuffix(data, []byte("\n"))))
		},
	} {
		rd := r()
		rd.SetMaxLine(64 << 10)
		var es []*transcript.Entry
		for rd.Next() {
			es = append(es, rd.Entry())
		}
		require.NoError(t, rd.Err())
		require.Len(t, es, 3)
		assert.NoError(t, es[0].Err)
		assert.True(t, errors.Is(es[1].Err, transcript.ErrLineTooLong), "%v", es[1].Err)
		assert.Nil(t, es[1].Raw)
		assert.Equal(t, 2, es[1].Line)
		assert.Equal(t, "after the image", es[2].Text())
		assert.Equal(t, 3, es[2].Line)
	}
	// The limit is the line's length without its line ending.
	line := `{"type":"x"}`
	for _, end := range []string{"\n", "\r\n", ""} {
		rd := transcript.NewReader(strings.NewReader(line + end))
		rd.SetMaxLine(len(line))
		require.True(t, rd.Next())
		assert.NoError(t, rd.Entry().Err, "%q", end)
		rd = transcript.NewReader(strings.NewReader(line + end))
		rd.SetMaxLine(len(line) - 1)
		require.True(t, rd.Next())
		assert.ErrorIs(t, rd.Entry().Err, transcript.ErrLineTooLong, "%q", end)
	}
}

// BenchmarkRead reads the real session transcript.
func BenchmarkRead(b *testing.B) {
	data := hugeTranscript(0)
	real, err := readFile("testdata/real/session.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	data = append(data, real...)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := transcript.Summarize(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHugeLine reads a transcript with one 50 MB line: the bytes
// allocated per read tell what a line costs beyond its own size.
func BenchmarkHugeLine(b *testing.B) {
	data := hugeTranscript(50 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rd := transcript.NewReader(bytes.NewReader(data))
		for rd.Next() {
		}
	}
}
