package clientrun

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Record is one hook invocation as its recorder ([Tap] or [HTTPTap])
// saved it.
type Record struct {
	// Seq numbers the invocations of a records folder from 1, in start
	// order.
	Seq int
	// Label is the recorder's label for the hook.
	Label string
	// Event, Tool and ToolUseID are the payload's hook_event_name,
	// tool_name and tool_use_id ("" when it has none).
	Event, Tool, ToolUseID string
	// In is the payload exactly as the client wrote it.
	In []byte
	// Out and Err are the hook's stdout and stderr (an http hook's
	// response body, and nothing).
	Out, Err []byte
	// Code is a command hook's exit code, or an http hook's HTTP status;
	// -1 when the hook did not finish (it was killed at its timeout).
	Code int
	// HTTP says the hook is an http hook.
	HTTP bool
	// Start is when the recorder started the hook; Elapsed how long the
	// hook ran (until it was killed, for one that did not finish), 0
	// when not recorded.
	Start   time.Time
	Elapsed time.Duration
	// SpawnErr is why the hook's program could not be started, "" when
	// it was.
	SpawnErr string
}

// ReadRecords reads the records in dir, in start order. A missing dir
// holds none.
func ReadRecords(dir string) ([]Record, error) {
	ins, err := filepath.Glob(filepath.Join(dir, "*.in"))
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, in := range ins {
		base := strings.TrimSuffix(in, ".in")
		seq, err := strconv.Atoi(filepath.Base(base))
		if err != nil {
			continue
		}
		h := Record{Seq: seq, Code: -1}
		if code, err := os.ReadFile(base + ".code"); err == nil {
			if h.Code, err = strconv.Atoi(string(code)); err != nil {
				return nil, fmt.Errorf("hook record %s.code: %w", base, err)
			}
		}
		h.In, _ = os.ReadFile(in)
		h.Out, _ = os.ReadFile(base + ".out")
		h.Err, _ = os.ReadFile(base + ".err")
		name, _ := os.ReadFile(base + ".label")
		h.Label = string(name)
		_, err = os.Stat(base + ".kind")
		h.HTTP = err == nil
		if b, err := os.ReadFile(base + ".start"); err == nil {
			if ns, err := strconv.ParseInt(string(b), 10, 64); err == nil {
				h.Start = time.Unix(0, ns)
			}
		}
		if b, err := os.ReadFile(base + ".ns"); err == nil {
			if ns, err := strconv.ParseInt(string(b), 10, 64); err == nil {
				h.Elapsed = time.Duration(ns)
			}
		}
		if b, err := os.ReadFile(base + ".spawn"); err == nil {
			h.SpawnErr = strings.TrimSpace(string(b))
		}
		for field, dst := range map[string]*string{"hook_event_name": &h.Event, "tool_name": &h.Tool, "tool_use_id": &h.ToolUseID} {
			if v, ok := ValueAt(h.In, field); ok {
				Unmarshal(v, dst)
			}
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}
