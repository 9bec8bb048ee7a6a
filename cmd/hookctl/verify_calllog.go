package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/calllog"
)

// This file gives verify the hook's own account of its calls: each run
// names a call log in the scratch folder ($HOOK_CALL_LOG, which a hook
// built with the library writes one line per call to, see
// docs/reliability.md, "The call log"), and the report shows its lines
// next to the verdict. A hook built otherwise writes none, and the report
// shows nothing more.

// callLogName is the call log's file in a run's folder.
const callLogName = "calls.jsonl"

// withCallLog returns env with $HOOK_CALL_LOG naming the call log of the
// run whose folder is dir.
func withCallLog(env []string, dir string) []string {
	return append(env, hook.CallLogEnv+"="+filepath.Join(dir, callLogName))
}

// readCallLog returns the lines of the call log of the run whose folder
// is dir, each as the report shows it; none when the hook wrote none.
func readCallLog(dir string) []string {
	ls, err := calllog.ReadFile(filepath.Join(dir, callLogName))
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, callLogLine(l))
	}
	return out
}

// callLogLine is one call log line as the report shows it: event and
// tool, the answer, the exit code, the time, and the failure and where
// it came from.
func callLogLine(l calllog.Line) string {
	var b strings.Builder
	b.WriteString(orDash(l.Event))
	if l.Tool != "" {
		b.WriteString(" " + l.Tool)
	}
	fmt.Fprintf(&b, ": %s, exit %d, %.1f ms", orDash(l.Answer), l.Exit, l.DurationMS)
	if l.Error != "" {
		fmt.Fprintf(&b, ", %.200q", l.Error)
	}
	if l.At != "" {
		b.WriteString(" at " + l.At)
	}
	return b.String()
}
