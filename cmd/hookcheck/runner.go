package main

import (
	"context"
	"errors"
	"os"
	"slices"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/hooktest"
)

// result is what one run of the hook did.
type result struct {
	// rec is the run's exit code, stdout, stderr and answer, with the
	// rules it breaks; nil when the command did not start.
	rec *hooktest.Recorder
	// err says why the command did not start, or that it timed out.
	err error
	// timedOut is true when the run outlived limit and was killed;
	// halted when it was killed because another run timed out (it is
	// then left out of the report).
	timedOut, halted bool
	limit            time.Duration
	elapsed          time.Duration
	// stdoutLen and stderrLen are the lengths of what was kept of the
	// streams before keep cut them.
	stdoutLen, stderrLen int
}

// code is the exit code of the run; -1 when the process did not exit by
// itself.
func (r result) code() int {
	if r.rec == nil {
		return -1
	}
	return r.rec.Code
}

// runner runs the hook command the way Claude Code runs a command hook,
// with hooktest.Command: the payload, a newline, stdin closed; the
// environment plus CLAUDE_PROJECT_DIR; the process group killed when a
// run overstays its timeout.
type runner struct {
	cmd hooktest.Command
}

// newRunner returns a runner of command in the current directory, with
// CLAUDE_PROJECT_DIR set to projectDir.
func newRunner(command []string, projectDir string, maxOutput int64) (*runner, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return &runner{
		cmd: hooktest.Command{
			Path:           command[0],
			Args:           command[1:],
			Env:            []string{"CLAUDE_PROJECT_DIR=" + projectDir},
			Dir:            wd,
			MaxOutputBytes: maxOutput,
		},
	}, nil
}

// errHalted is the cause of the runs cut short because another run timed
// out.
var errHalted = errors.New("another run timed out")

// run runs the command once on payload, killing it after limit.
func (r *runner) run(ctx context.Context, payload []byte, limit time.Duration) result {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	rec, err := r.cmd.Run(ctx, payload)
	res := result{rec: rec, err: err, limit: limit, elapsed: time.Since(start)}
	if rec != nil {
		res.elapsed = rec.Duration
	}
	// Command.Run's error wraps the cause of a run it killed.
	res.timedOut = rec != nil && errors.Is(err, context.DeadlineExceeded)
	res.halted = rec != nil && errors.Is(err, errHalted)
	if rec != nil {
		res.stdoutLen, res.stderrLen = len(rec.Stdout), len(rec.Stderr)
		keep(rec)
	}
	return res
}

// kept is how much of a run's stdout and stderr hookcheck holds on to
// once the run is checked, so that its memory does not grow with the
// runs; the report prints less.
const kept = 16 << 10

// keep lets go of all but the first bytes of rec's stdout and stderr,
// and of the decoded answer, which hold on to stdout; UpdatedInput and
// UpdatedToolOutput, which the analysis reads, are copied, and so are the
// hookSpecificOutput's updatedToolOutput and updatedMCPToolOutput (which
// of them an answer carries is what the analysis names and Codex judges).
func keep(rec *hooktest.Recorder) {
	rec.UpdatedInput = slices.Clone(rec.UpdatedInput)
	rec.UpdatedToolOutput = slices.Clone(rec.UpdatedToolOutput)
	var hs map[string]jsontext.Value
	for _, k := range []string{"updatedToolOutput", "updatedMCPToolOutput"} {
		if v, ok := rec.HookSpecificOutput[k]; ok {
			if hs == nil {
				hs = map[string]jsontext.Value{}
			}
			hs[k] = slices.Clone(v)
		}
	}
	rec.Answer, rec.HookSpecificOutput = nil, hs
	if len(rec.Stdout) > kept {
		rec.Stdout = slices.Clone(rec.Stdout[:kept])
	}
	if len(rec.Stderr) > kept {
		rec.Stderr = slices.Clone(rec.Stderr[:kept])
	}
}
