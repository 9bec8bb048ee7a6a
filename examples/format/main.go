// Command format is a PostToolUse hook for Write and Edit that keeps Go
// files gofmt-clean: after Claude writes or edits a .go file it runs
// `gofmt -l` on it and, when the file is not formatted, tells Claude so,
// with gofmt's diff, next to the tool result. A file gofmt cannot parse
// is reported with gofmt's syntax errors. The file has already been
// written (PostToolUse runs after the tool); the report asks Claude to fix
// it. Other files, and files that are clean, get no answer.
//
// It needs gofmt on $PATH; without it, it fails with a non-blocking error
// that Claude Code shows to the user. Register it for the file tools:
//
//	{"hooks": {"PostToolUse": [{"matcher": "Write|Edit",
//	  "hooks": [{"type": "command", "command": "/path/to/format"}]}]}}
//
// Try it on a messy file (the payload names messy.go in the current
// folder):
//
//	printf 'package main\nfunc  main() {}\n' > messy.go
//	go run ./examples/format < examples/format/testdata/write-go.json
//	rm messy.go
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the format hook.
func Handler() hook.Handler {
	return hook.PostToolUseFunc(check)
}

// maxReport caps the diff or the errors quoted to Claude.
const maxReport = 4000

func check(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
	if e.ToolName != hook.ToolWrite && e.ToolName != hook.ToolEdit {
		return nil, nil
	}
	in, err := hook.DecodeView[struct {
		FilePath string `json:"file_path"`
		// Path is the file of the GitHub Copilot CLI's Write and Edit
		// calls, which do not send file_path.
		Path string `json:"path"`
	}](e.ToolInput)
	if err != nil {
		return nil, err
	}
	file := in.FilePath
	if file == "" {
		file = in.Path
	}
	if !strings.HasSuffix(file, ".go") {
		return nil, nil
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(e.Cwd, file)
	}
	if _, err := os.Stat(file); err != nil {
		return nil, nil // gone already: nothing to format
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	listed, errs, err := gofmt(ctx, "-l", file)
	switch {
	case err != nil && errs == "":
		return nil, err
	case errs != "":
		return &hook.PostToolUseOutput{Block: true, Reason: fmt.Sprintf(
			"format: gofmt cannot parse %s, so it will not build. Fix these syntax errors:\n%s", file, clip(errs))}, nil
	case strings.TrimSpace(listed) == "":
		return nil, nil // formatted
	}
	diff, _, err := gofmt(ctx, "-d", file)
	if err != nil {
		return nil, err
	}
	return &hook.PostToolUseOutput{Block: true, Reason: fmt.Sprintf(
		"format: %s is not gofmt-formatted. Run `gofmt -w %s`, or make these changes:\n%s", file, file, clip(diff))}, nil
}

// gofmt runs gofmt with args and returns its stdout, and its stderr when
// it reports problems with the file (exit code 2). Exit code 1 with a
// diff on stdout is how gofmt -d says the file differs.
func gofmt(ctx context.Context, args ...string) (stdout, problems string, err error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "gofmt", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 2 && errb.Len() > 0:
		return out.String(), errb.String(), err
	case errors.As(err, &ee) && ee.ExitCode() == 1 && out.Len() > 0 && errb.Len() == 0:
		return out.String(), "", nil // -d exits 1 when it shows a diff
	}
	if err != nil {
		return "", "", fmt.Errorf("format: gofmt %s: %w (%s)", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), "", nil
}

func clip(s string) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > maxReport {
		return s[:maxReport] + "\n… (cut)"
	}
	return s
}
