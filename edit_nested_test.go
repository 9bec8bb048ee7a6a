package hook_test

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

// editCase is one typed edit and the exact bytes it must produce.
type editCase struct {
	name, in, want string
	edit           func(t *testing.T, in jsontext.Value) (jsontext.Value, error)
}

func editOf[T any](f func(*T)) func(*testing.T, jsontext.Value) (jsontext.Value, error) {
	return func(_ *testing.T, in jsontext.Value) (jsontext.Value, error) {
		return hook.Edit(in, func(v *T) error { f(v); return nil })
	}
}

// The todos of TodoWrite carry an id and a priority the view does not
// know, and an escape the view would respell.
const todos = `{"todos":[{"id":"t1","content":"caf\u00e9","status":"pending","activeForm":"Brewing","priority":"high"},` +
	`{"id":"t2","content":"tea \ud800","status":"pending","activeForm":"x","extra":{"n":2.50}},` +
	`{"id":"t3","content":"z","status":"completed","activeForm":""}],"merge":true}`

// TestEditKeepsEveryDepth: typed edits of nested views keep every
// untouched value's bytes and every unknown member, at every depth, for
// changes, insertions, deletions and appends.
func TestEditKeepsEveryDepth(t *testing.T) {
	for _, tc := range []editCase{
		{
			name: "one todo's status",
			in:   todos,
			want: strings.Replace(todos, `"status":"pending","activeForm":"x"`, `"status":"completed","activeForm":"x"`, 1),
			edit: editOf(func(v *hook.TodoWriteInput) { v.Todos[1].Status = "completed" }),
		},
		{
			name: "a todo appended",
			in:   todos,
			want: strings.Replace(todos, `""}]`, `""},{"content":"new","status":"pending","activeForm":"Adding"}]`, 1),
			edit: editOf(func(v *hook.TodoWriteInput) {
				v.Todos = append(v.Todos, hook.Todo{Content: "new", Status: "pending", ActiveForm: "Adding"})
			}),
		},
		{
			name: "the first todo deleted",
			in:   todos,
			want: strings.Replace(todos, `{"id":"t1","content":"caf\u00e9","status":"pending","activeForm":"Brewing","priority":"high"},`, ``, 1),
			edit: editOf(func(v *hook.TodoWriteInput) { v.Todos = v.Todos[1:] }),
		},
		{
			name: "a todo inserted in the middle",
			in:   todos,
			want: strings.Replace(todos, `{"id":"t2"`, `{"content":"mid","status":"pending","activeForm":"m"},{"id":"t2"`, 1),
			edit: editOf(func(v *hook.TodoWriteInput) {
				v.Todos = append(v.Todos[:1], append([]hook.Todo{{Content: "mid", Status: "pending", ActiveForm: "m"}}, v.Todos[1:]...)...)
			}),
		},
		{
			name: "a field set to the zero value inside a nested item",
			in:   todos,
			want: strings.Replace(todos, `"activeForm":"Brewing"`, `"activeForm":""`, 1),
			edit: editOf(func(v *hook.TodoWriteInput) { v.Todos[0].ActiveForm = "" }),
		},
		{
			name: "an AskUserQuestion option's description",
			in:   `{"questions":[{"id":"q1","question":"Which?","header":"H","options":[{"id":"o1","label":"A","description":"d\u00e9","icon":"x"},{"id":"o2","label":"B","description":"e"}],"multiSelect":false,"meta":7}],"metadata":{"source":"m"}}`,
			want: `{"questions":[{"id":"q1","question":"Which?","header":"H","options":[{"id":"o1","label":"A","description":"d\u00e9","icon":"x"},{"id":"o2","label":"B","description":"E!"}],"multiSelect":false,"meta":7}],"metadata":{"source":"m"}}`,
			edit: editOf(func(v *hook.AskUserQuestionInput) { v.Questions[0].Options[1].Description = "E!" }),
		},
		{
			name: "AskUserQuestion answers added",
			in:   `{"questions":[{"id":"q1","question":"Which?","header":"H","options":[{"label":"A","description":"d"},{"label":"B","description":"e"}],"multiSelect":false}]}`,
			want: `{"questions":[{"id":"q1","question":"Which?","header":"H","options":[{"label":"A","description":"d"},{"label":"B","description":"e"}],"multiSelect":false}],"answers":{"Which?":"B"}}`,
			edit: editOf(func(v *hook.AskUserQuestionInput) { v.Answers = map[string]string{"Which?": "B"} }),
		},
		{
			name: "an answer changed in an existing map keeps the other keys' bytes",
			in:   `{"questions":[],"answers":{"a":"caf\u00e9","b":"x","c":"y"}}`,
			want: `{"questions":[],"answers":{"a":"caf\u00e9","b":"z","c":"y"}}`,
			edit: editOf(func(v *hook.AskUserQuestionInput) { v.Answers["b"] = "z" }),
		},
		{
			name: "README redaction: Read content set to empty",
			in:   `{"type":"text","file":{"filePath":"/p/.env","content":"KEY=secret","numLines":1,"startLine":1,"totalLines":1,"future":"f"},"x":1}`,
			want: `{"type":"text","file":{"filePath":"/p/.env","content":"","numLines":0,"startLine":1,"totalLines":1,"future":"f"},"x":1}`,
			edit: editOf(func(v *hook.ReadResponse) { v.File.Content = ""; v.File.NumLines = 0 }),
		},
		{
			name: "a zero boolean written",
			in:   `{"type":"text","file":{"filePath":"/p","content":"c","truncatedByTokenCap":true}}`,
			want: `{"type":"text","file":{"filePath":"/p","content":"c","truncatedByTokenCap":false}}`,
			edit: editOf(func(v *hook.ReadResponse) { v.File.TruncatedByTokenCap = false }),
		},
		{
			name: "a structured patch line changed",
			in:   `{"filePath":"/f","oldString":"a","newString":"b","originalFile":"a\u00e9","structuredPatch":[{"oldStart":1,"oldLines":1.0,"newStart":1,"newLines":1,"lines":["-a","+b"],"h":1}],"userModified":false,"replaceAll":false}`,
			want: `{"filePath":"/f","oldString":"a","newString":"b","originalFile":"a\u00e9","structuredPatch":[{"oldStart":1,"oldLines":1.0,"newStart":1,"newLines":1,"lines":["-a","+B"],"h":1}],"userModified":false,"replaceAll":false}`,
			edit: editOf(func(v *hook.EditResponse) { v.StructuredPatch[0].Lines[1] = "+B" }),
		},
		{
			name: "fractional numbers in integer fields are read and kept",
			in:   `{"command":"ls","timeout":2.50,"x":1.2e2}`,
			want: `{"command":"ls -la","timeout":2.50,"x":1.2e2}`,
			edit: editOf(func(v *hook.BashInput) { v.Command += " -la" }),
		},
		{
			name: "a fractional integer field changed",
			in:   `{"file_path":"/a","offset":120.0,"limit":1.2e2}`,
			want: `{"file_path":"/a","offset":10,"limit":1.2e2}`,
			edit: editOf(func(v *hook.ReadInput) { v.Offset = 10 }),
		},
		{
			name: "big numbers beyond int64",
			in:   `{"command":"ls","timeout":12345678901234567890}`,
			want: `{"command":"pwd","timeout":12345678901234567890}`,
			edit: editOf(func(v *hook.BashInput) { v.Command = "pwd" }),
		},
		{
			name: "no change keeps whitespace and all",
			in:   `{ "todos" : [ {"id":"t1", "content":"a","status":"pending","activeForm":"A"} ] }`,
			want: `{ "todos" : [ {"id":"t1", "content":"a","status":"pending","activeForm":"A"} ] }`,
			edit: editOf(func(v *hook.TodoWriteInput) {}),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.edit(t, jsontext.Value(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

// TestEditReadsWhatClaudeCodeSends: a typed view decodes every number
// JavaScript can send into an integer field.
func TestEditReadsWhatClaudeCodeSends(t *testing.T) {
	for raw, want := range map[string]int64{
		`2.50`: 2, `120.0`: 120, `1.2e2`: 120, `-2.5`: -2, `1e300`: 1<<63 - 1, `-1e300`: -1 << 63,
		`12345678901234567890`: 1<<63 - 1, `9007199254740993`: 9007199254740993, `0.0`: 0, `-0`: 0,
	} {
		in, err := hook.DecodeView[hook.BashInput](jsontext.Value(`{"command":"c","timeout":` + raw + `}`))
		require.NoError(t, err, raw)
		assert.Equal(t, want, in.Timeout, raw)
	}
}

// TestUpdateRefusesRemovals: only Remove drops members, at any depth.
func TestUpdateRefusesRemovals(t *testing.T) {
	_, err := hook.Edit(jsontext.Value(`{"questions":[],"answers":{"a":"x","b":"y"}}`), func(v *hook.AskUserQuestionInput) error {
		delete(v.Answers, "a")
		return nil
	})
	assert.ErrorContains(t, err, "/answers")
	assert.ErrorContains(t, err, "hook.Remove")
	_, err = hook.Edit(jsontext.Value(`{"questions":[],"metadata":{"source":"s"}}`), func(v *hook.AskUserQuestionInput) error {
		v.Metadata = nil
		return nil
	})
	assert.ErrorContains(t, err, "/metadata")
}
