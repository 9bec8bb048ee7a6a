package hook

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
)

// TestServedToolLivesWhileTheHandlerRuns: the process-wide record of a
// served tool_input names its tool to Edit and Update only for the bytes
// Serve read, only while the handler runs, also with calls served at
// once; a copy or a slice of the bytes finds nothing, and the record is
// gone once Serve returned.
func TestServedToolLivesWhileTheHandlerRuns(t *testing.T) {
	tools := []string{ToolBash, ToolWrite, ToolRead, ToolEdit}
	inputs := make([]jsontext.Value, len(tools))
	var start, seenAll sync.WaitGroup
	start.Add(len(tools))
	seenAll.Add(len(tools))
	var wg sync.WaitGroup
	for i, tool := range tools {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var seen, copied, sliced string
			var others []string
			h := PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
				inputs[i] = e.ToolInput
				start.Done()
				start.Wait() // every call is in its handler at once
				seen = servedTool(e.ToolInput)
				copied = servedTool(bytes.Clone(e.ToolInput))
				sliced = servedTool(e.ToolInput[:len(e.ToolInput)-1])
				for _, in := range inputs {
					others = append(others, servedTool(in))
				}
				seenAll.Done()
				seenAll.Wait() // none returns before every call looked
				return nil, nil
			})
			in := `{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"/t","cwd":"/","tool_name":"` + tool + `","tool_input":{"file_path":"/a","command":"x"},"tool_use_id":"toolu_1"}`
			var stdout, stderr bytes.Buffer
			code := (&Server{Handler: h}).Serve(context.Background(), bytes.NewReader([]byte(in)), &stdout, &stderr)
			assert.Equal(t, ExitOK, code, stderr.String())
			assert.Equal(t, tool, seen)
			assert.Empty(t, copied)
			assert.Empty(t, sliced)
			assert.Equal(t, tools, others, "each call sees every call's record")
		}()
	}
	wg.Wait()
	for i, in := range inputs {
		assert.Empty(t, servedTool(in), "the record of %s outlives its call", tools[i])
	}
}
