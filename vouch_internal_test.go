package hook

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/inputedit"
)

// TestVouchingTakesTheFastPath checks, from inside the handler, which
// inputs and Merge results an invocation vouches for: a compact input and
// a Merge of it (of inputedit.SpliceFrom bytes or more, the answer carries it as a
// placeholder until Serve splices the value in), also with whitespace
// between its tokens; not an input written into, or a Merge result
// written into. The tests in vouch_test.go check that the answers are the same
// either way; this one that both ways are taken.
func TestVouchingTakesTheFastPath(t *testing.T) {
	big := `{"room":"Z\u00fcrich","notes":"` + strings.Repeat(`caf\u00e9 \"x\" `, inputedit.SpliceFrom/8) + `"}`
	small := `{"room":"Z\u00fcrich"}`
	spaced := strings.Replace(big, `,"notes":`, `, "notes":`, 1)
	event := func(in string) []byte {
		return []byte(`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__a__b","tool_input":` + in + `}`)
	}
	cases := []struct {
		name          string
		in            string
		before, after func(e *PreToolUse, upd jsontext.Value)
		input, merged bool
		placeholder   bool
	}{
		{name: "big compact input", in: big, input: true, merged: true, placeholder: true},
		{name: "small compact input", in: small, input: true, merged: true},
		{name: "input with whitespace", in: spaced, input: true, merged: true, placeholder: true},
		{name: "indented input", in: indented(big), input: true, merged: true, placeholder: true},
		{name: "small input with whitespace", in: indented(small), input: true, merged: true},
		{name: "input written into", in: big, before: func(e *PreToolUse, _ jsontext.Value) { e.ToolInput[10] = 'X' }},
		{name: "result written into", in: big, input: true, after: func(e *PreToolUse, upd jsontext.Value) { upd[10] = 'X' }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ran := false
			h := PreToolUseFunc(func(ctx context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
				ran = true
				vg := e.inv.vouched()
				if c.before != nil {
					c.before(e, nil)
				}
				_, ok := vg.SplitOf(e.ToolInput)
				assert.Equal(t, c.input, ok, "the input is vouched for")
				upd, err := e.Merge(map[string]int{"n": 1})
				require.NoError(t, err)
				if c.after != nil {
					c.after(e, upd)
				}
				assert.Equal(t, c.merged, vg.Vouches(upd), "the Merge result is vouched for")
				out := &PreToolUseOutput{Decision: Allow, UpdatedInput: upd}
				b, err := out.appendAnswer(nil, &e.Event)
				if c.after != nil {
					return out, nil // the answer is what the checks make of it
				}
				require.NoError(t, err)
				assert.Equal(t, c.placeholder, bytes.Contains(b, []byte(inputedit.PlaceholderPrefix)), "the encoded answer carries a placeholder: %.120s", b)
				return out, nil
			})
			var stdout, stderr bytes.Buffer
			code := Serve(context.Background(), bytes.NewReader(event(c.in)), &stdout, &stderr, h)
			require.True(t, ran)
			assert.Equal(t, ExitOK, code, stderr.String())
			assert.NotContains(t, stdout.String(), "hook-vouched")
			assert.Contains(t, stdout.String(), `"n":1}`)
			assert.NotContains(t, stdout.String(), `": `, "the answer is compact")
		})
	}
}

// indented returns the valid JSON text s indented by json.Indent, which
// keeps the bytes of its strings.
func indented(s string) string {
	var b bytes.Buffer
	if err := stdjson.Indent(&b, []byte(s), "", "\t"); err != nil {
		panic(err)
	}
	return "\r\n" + strings.ReplaceAll(b.String(), "\n", "\r\n") + " "
}

// TestServeRefusesAnAnswerFromAWrittenInput serves handlers that merge,
// then write into the tool_input they were lent, on inputs of one block
// of the vouching's hashes and of several (3 MiB): the answer built from it is never written, and the
// fail-closed hook blocks.
func TestServeRefusesAnAnswerFromAWrittenInput(t *testing.T) {
	for _, c := range []struct {
		size   int
		spaced bool
	}{{2 * inputedit.SpliceFrom, false}, {3 << 20, false}, {2 * inputedit.SpliceFrom, true}, {3 << 20, true}} {
		size := c.size
		t.Run(strconv.Itoa(size)+map[bool]string{true: " indented"}[c.spaced], func(t *testing.T) {
			in := []byte(`{"a":1,"big":"` + strings.Repeat(`x\"y`, size/4) + `","z":[true,null]}`)
			if c.spaced {
				in = benchpayload.Indented(in)
			}
			event := `{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__a__b","tool_input":` + string(in) + `}`
			h := FailClosed(PreToolUseFunc(func(ctx context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
				upd, err := e.Merge(map[string]int{"n": 1})
				if err != nil {
					return nil, err
				}
				e.ToolInput[len(e.ToolInput)-3] = '"' // breaks the input: [true,nul"]
				return &PreToolUseOutput{Decision: Allow, UpdatedInput: upd}, nil
			}))
			var stdout, stderr bytes.Buffer
			code := Serve(context.Background(), strings.NewReader(event), &stdout, &stderr, h)
			assert.Equal(t, ExitBlock, code)
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), "wrote into the bytes of the tool_input")
		})
	}
}
