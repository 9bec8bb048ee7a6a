package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// written returns a PostToolUse payload for tool having written file.
func written(t *testing.T, tool, file string) []byte {
	t.Helper()
	var in map[string]any
	if tool == hook.ToolWrite {
		in = map[string]any{"file_path": file, "content": "x"}
	} else {
		in = map[string]any{"file_path": file, "old_string": "a", "new_string": "b", "replace_all": false}
	}
	b, err := json.Marshal(in, json.Deterministic(true))
	require.NoError(t, err)
	resp := `{"type":"update","filePath":"x","content":"x","structuredPatch":[],"originalFile":null}`
	return hooktest.NewPostToolUse(tool, string(b), resp)
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestCleanFileGetsNoAnswer(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "ok.go", "package main\n\nfunc main() {}\n")
	for _, tool := range []string{hook.ToolWrite, hook.ToolEdit} {
		rec := hooktest.Record(Handler(), written(t, tool, p))
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code)
		assert.Empty(t, rec.Stdout, tool)
	}
}

func TestUnformattedFileIsReportedWithTheDiff(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "messy.go", "package main\nfunc  main() {\nx:=1\n_ = x}\n")
	for _, tool := range []string{hook.ToolWrite, hook.ToolEdit} {
		rec := hooktest.Record(Handler(), written(t, tool, p))
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code)
		assert.Equal(t, "block", rec.Decision, tool)
		assert.Contains(t, rec.Reason, "format: "+p+" is not gofmt-formatted. Run `gofmt -w "+p+"`, or make these changes:\n")
		assert.Contains(t, rec.Reason, "+\tx := 1", "the diff shows the fix")
	}
	// The hook reports; it does not rewrite the file.
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "package main\nfunc  main() {\nx:=1\n_ = x}\n", string(b))
}

func TestSyntaxErrorsAreReported(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "broken.go", "package main\n\nfunc main() {\n")
	rec := hooktest.Record(Handler(), written(t, hook.ToolWrite, p))
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Contains(t, rec.Reason, "format: gofmt cannot parse "+p+", so it will not build. Fix these syntax errors:\n")
	assert.Contains(t, rec.Reason, "broken.go:3:15: expected '}', found 'EOF'")
}

func TestRelativePathIsResolvedInCwd(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "messy.go", "package main\nfunc  main() {}\n")
	p := hooktest.WithField(written(t, hook.ToolWrite, "messy.go"), "cwd", dir)
	rec := hooktest.Record(Handler(), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Contains(t, rec.Reason, filepath.Join(dir, "messy.go")+" is not gofmt-formatted")
}

func TestIgnoresOtherFilesAndTools(t *testing.T) {
	dir := t.TempDir()
	txt := writeFile(t, dir, "notes.txt", "func  main() {\n")
	for _, payload := range [][]byte{
		written(t, hook.ToolWrite, txt),
		written(t, hook.ToolWrite, filepath.Join(dir, "gone.go")), // deleted since
		hooktest.NewPostToolUse(hook.ToolBash, `{"command":"gofmt -w x.go"}`, `{"stdout":"","stderr":"","interrupted":false}`),
		hooktest.NewPreToolUse(hook.ToolWrite, `{"file_path":"`+txt+`","content":"x"}`),
	} {
		rec := hooktest.Record(Handler(), payload)
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code)
		assert.Empty(t, rec.Stdout)
	}
}

func TestLongReportsAreCut(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n"
	for i := 0; i < 500; i++ {
		src += "var  x" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " = 1\n"
	}
	p := writeFile(t, dir, "long.go", src)
	rec := hooktest.Record(Handler(), written(t, hook.ToolWrite, p))
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Less(t, len(rec.Reason), maxReport+400)
	assert.Contains(t, rec.Reason, "… (cut)")
}

// TestCopilotWriteIsChecked: the GitHub Copilot CLI's Write and Edit name
// the file "path" (relative to cwd); the hook checks those files too,
// rather than doing nothing for every Copilot call.
func TestCopilotWriteIsChecked(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "messy.go", "package main\nfunc  main() {}\n")
	for tool, in := range map[string]string{
		hook.ToolWrite: `{"path":"messy.go","file_text":"package main\nfunc  main() {}\n"}`,
		hook.ToolEdit:  `{"path":"messy.go","old_str":"a","new_str":"b"}`,
	} {
		cwd, err := json.Marshal(dir)
		require.NoError(t, err)
		p := []byte(`{"hook_event_name":"PostToolUse","session_id":"196062a2-fb03-4186-aea1-dffeceacfe17","timestamp":"2026-12-04T17:00:06.914Z","cwd":` + string(cwd) + `,"tool_name":"` + tool + `","tool_input":` + in + `,"tool_result":{"result_type":"success","text_result_for_llm":"ok"}}`)
		rec := hooktest.Record(Handler(), p)
		require.NoError(t, rec.Err(), tool)
		assert.Equal(t, "block", rec.Decision, tool)
		assert.Contains(t, rec.Reason, "messy.go is not gofmt-formatted", tool)
	}
}
