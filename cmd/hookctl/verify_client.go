package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/clientrun"
)

// What the Claude Code and the Codex runs of verify share: the probe MCP
// server's files, one run of the client, and the reading of what the
// hooks and the probe recorded.

// writeProbeConfig writes, in dir, the configuration of a probe MCP
// server named server that offers tool, and returns its path.
func writeProbeConfig(dir, server, tool string) (string, error) {
	cfg := filepath.Join(dir, "probe.json")
	return cfg, writeFileMkdir(cfg, marshalValue(clientrun.ProbeConfig{Name: server, Log: filepath.Join(dir, "probe.log"),
		Tools: []clientrun.ProbeTool{{Name: tool, Description: "hookctl verify probe", InputSchema: jsontext.Value(`{"type":"object"}`), Reply: "ok"}}}))
}

// probeArgs returns the arguments of the first call the probe server in
// dir received, nil when it received none.
func probeArgs(dir string) jsontext.Value {
	b, err := os.ReadFile(filepath.Join(dir, "probe.log"))
	if err != nil {
		return nil
	}
	if line, _, _ := bytes.Cut(b, []byte("\n")); len(line) > 0 {
		if a, ok := clientrun.ValueAt(line, "arguments"); ok {
			return a
		}
	}
	return nil
}

// clientRun is what one run of a client's process gave.
type clientRun struct {
	stdout, stderr bytes.Buffer
	elapsed        time.Duration
	// stopped says why the run did not end on its own ("" when it did).
	stopped string
}

// runClient runs cmd, made with ctx and placed in a process group of its
// own, until it exits or ctx ends, then ends the group and keeps its
// output in dir as name.out and name.err. The error is one of starting
// or waiting for it; an exit code other than 0 is not.
func runClient(ctx context.Context, cmd *exec.Cmd, dir, name string, limit time.Duration) (*clientRun, error) {
	r := &clientRun{}
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	cmd.WaitDelay = 5 * time.Second
	t0 := time.Now()
	runErr := cmd.Run()
	r.elapsed = time.Since(t0)
	clientrun.KillProcessGroup(cmd)
	os.WriteFile(filepath.Join(dir, name+".out"), r.stdout.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, name+".err"), r.stderr.Bytes(), 0o644)
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.stopped = fmt.Sprintf("%s did not finish within %v", name, limit)
	case runErr != nil && !errors.As(runErr, &ee):
		return nil, fmt.Errorf("running %s: %w", name, runErr)
	}
	return r, nil
}

// collectRuns adds to o the records in capDir: the runs of the hook
// under test, and those of the other hooks that saw the call callID.
func collectRuns(o *observed, capDir, callID string) error {
	recs, err := clientrun.ReadRecords(capDir)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.Label == hookLabel {
			o.Runs = append(o.Runs, recordedRun(r))
		} else if r.ToolUseID == callID {
			o.Observed = append(o.Observed, recordedRun(r))
		}
	}
	return nil
}
