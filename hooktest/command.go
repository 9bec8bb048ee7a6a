package hooktest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gohooks/hook/internal/rawjson"
)

// Command describes a hook program to run on payloads, like a command
// hook in Claude Code's settings: any executable (a Go binary, a bash,
// node or python script, an interpreter with arguments).
type Command struct {
	// Path is the program: a name looked up in PATH, or a path (relative
	// paths are taken from the current directory, not from Dir).
	Path string
	// Args are the program's arguments.
	Args []string
	// Env holds extra "KEY=value" entries, added after the current
	// process's environment and CLAUDE_PROJECT_DIR, so they win.
	Env []string
	// Dir is the working directory. When empty, the program runs in the
	// payload's cwd if that is an existing directory (as under Claude
	// Code), else in the current directory.
	Dir string
	// WaitDelay bounds how long Run waits for stdout and stderr to close
	// after the program exited or was killed (a background child may hold
	// them open). Zero means one second.
	WaitDelay time.Duration
	// MaxOutputBytes caps what Run keeps of stdout, and of stderr: a
	// program that writes more is stopped at once (its process tree
	// killed), and the Recorder says so (StdoutOver, StderrOver, and a
	// [RuleOutput] problem). Zero means [DefaultMaxOutputBytes]; a
	// negative value means no cap.
	MaxOutputBytes int64
}

// DefaultMaxOutputBytes is the cap on stdout and on stderr that a
// [Command] with a zero MaxOutputBytes keeps: 4 MiB, far more than any
// answer, far less than a runaway program writes.
const DefaultMaxOutputBytes = 4 << 20

// The rules only [Command.Run] checks.
const (
	// RuleOutput: the program wrote more than the Command's
	// MaxOutputBytes on stdout or stderr and was stopped.
	RuleOutput = "a hook must write a bounded answer"
	// RuleSurvivors: the program left processes running after it exited
	// or was killed (a background child, a setsid daemon); Run killed
	// them.
	RuleSurvivors = "a hook must not leave processes running"
)

// Run runs the program once, the way Claude Code runs a command hook:
// payload and one newline on stdin, then stdin closed; the environment
// plus CLAUDE_PROJECT_DIR set to the payload's cwd (or the working
// directory when the payload has none); stdout and stderr recorded. The
// result is checked with [CheckAnswer] and decoded like [Record]'s.
//
// A program that exits with any code is a result, not an error. Run
// returns an error, and no Recorder, when the program cannot be started.
// When ctx is done before the program exits, Run kills its whole process
// tree and returns the Recorder with Code -1 and what was written so far,
// together with an error that wraps the context's cause. Run starts the
// program in a new process group and, when it exits or is killed, kills
// what is left of the group and, on Linux, every process that inherited
// the run's mark in its environment (HOOKTEST_RUN), so that a child that
// left the group with setsid is found too; those it names in
// [Recorder.Survivors] (elsewhere than on Unix, the process alone is
// killed). What is kept of stdout and stderr is capped (see
// MaxOutputBytes).
func (c *Command) Run(ctx context.Context, payload []byte) (*Recorder, error) {
	if c.Path == "" {
		return nil, errors.New("hooktest: Command.Run: empty program path")
	}
	prog := c.Path
	if strings.ContainsRune(prog, filepath.Separator) || strings.ContainsRune(prog, '/') {
		abs, err := filepath.Abs(prog)
		if err != nil {
			return nil, fmt.Errorf("hooktest: %s: %w", prog, err)
		}
		prog = abs
	}
	cwd := payloadCwd(payload)
	dir := c.Dir
	if dir == "" && cwd != "" {
		if st, err := os.Stat(cwd); err == nil && st.IsDir() {
			dir = cwd
		}
	}
	project := cwd
	if project == "" {
		project = dir
	}
	if project == "" {
		project, _ = os.Getwd()
	}
	limit := c.MaxOutputBytes
	if limit == 0 {
		limit = DefaultMaxOutputBytes
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	mark := newRunMark()
	cmd := exec.CommandContext(ctx, prog, c.Args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CLAUDE_PROJECT_DIR="+project, markVar+"="+mark), c.Env...)
	cmd.Stdin = bytes.NewReader(stdin(payload))
	stdout := &cappedBuffer{limit: limit, over: func() { stop(errOutputCap) }}
	stderr := &cappedBuffer{limit: limit, over: func() { stop(errOutputCap) }}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = c.WaitDelay
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = time.Second
	}
	setProcessGroup(cmd)
	before := processes()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("hooktest: starting %s: %w", c.Path, err)
	}
	werr := cmd.Wait()
	survivors := killMarked(mark, before)
	killProcessGroup(cmd)
	r := &Recorder{Stdout: stdout.buf.Bytes(), Stderr: stderr.buf.Bytes(), Duration: time.Since(start), Code: -1,
		StdoutOver: stdout.dropped > 0, StderrOver: stderr.dropped > 0, Survivors: survivors}
	if cmd.ProcessState != nil {
		r.Code = cmd.ProcessState.ExitCode()
	}
	capped := errors.Is(context.Cause(ctx), errOutputCap)
	if ctx.Err() != nil {
		r.Code = -1
	}
	r.finish(payload)
	if capped {
		r.Problems = slices.DeleteFunc(r.Problems, func(e error) bool {
			v, ok := e.(*Violation)
			// What was kept is a cut copy: RuleOutput says it all.
			return ok && (v.Rule == RuleStdout || v.Rule == RuleExitCode || v.Rule == RuleOutputCap)
		})
		for _, o := range []struct {
			name string
			over bool
		}{{"stdout", r.StdoutOver}, {"stderr", r.StderrOver}} {
			if o.over {
				r.Problems = append(r.Problems, &Violation{Rule: RuleOutput, Detail: fmt.Sprintf("%s over %d bytes; the hook was stopped and only the first %d bytes kept", o.name, limit, limit)})
			}
		}
	}
	if len(survivors) > 0 {
		r.Problems = append(r.Problems, &Violation{Rule: RuleSurvivors, Detail: fmt.Sprintf("%d processes still ran after the hook ended and were killed: %s", len(survivors), strings.Join(survivors, "; "))})
	}
	if capped {
		return r, nil
	}
	if ctx.Err() != nil {
		return r, fmt.Errorf("hooktest: %s did not finish in time and was killed: %w", c.Path, context.Cause(ctx))
	}
	var exitErr *exec.ExitError
	if werr != nil && !errors.As(werr, &exitErr) && !errors.Is(werr, exec.ErrWaitDelay) {
		return r, fmt.Errorf("hooktest: running %s: %w", c.Path, werr)
	}
	return r, nil
}

// errOutputCap is the cause of a run stopped for writing too much.
var errOutputCap = errors.New("output over the cap")

// markVar is the environment variable that marks a run's processes.
const markVar = "HOOKTEST_RUN"

var runCount atomic.Int64

// newRunMark returns a mark unique to one run of this process.
func newRunMark() string {
	return strconv.Itoa(os.Getpid()) + "." + strconv.FormatInt(runCount.Add(1), 10)
}

// cappedBuffer keeps the first limit bytes written to it (all of them
// when limit is negative), counts the rest, and calls over once when the
// limit is passed. It never fails a write: the program's pipe keeps
// draining until it is killed.
type cappedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	limit   int64
	dropped int64
	over    func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if b.limit >= 0 {
		room := b.limit - int64(b.buf.Len())
		if int64(len(p)) > room {
			if b.dropped == 0 && b.over != nil {
				defer b.over()
			}
			b.dropped += int64(len(p)) - room
			p = p[:room]
		}
	}
	b.buf.Write(p)
	return n, nil
}

// payloadCwd returns the payload's cwd, or "".
func payloadCwd(payload []byte) string {
	ms, err := rawjson.Members(bytes.TrimRight(payload, "\n"))
	if err != nil {
		return ""
	}
	s, _ := stringMember(ms, "cwd")
	return s
}

// BuildGo builds the Go main package pkg (an import path, or a directory
// such as "./testdata/myhook", relative to the test's working directory)
// into t.TempDir() and returns the binary's path. The build runs
// "go build" from the go command in PATH, or else from the Go installation
// that built the test; a failed build fails the test with the compiler's
// output.
func BuildGo(t testing.TB, pkg string) string {
	t.Helper()
	name := path.Base(filepath.ToSlash(pkg))
	if name == "." || name == "/" || name == "" {
		name = "hook"
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command(goTool(), "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hooktest: BuildGo: go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// goTool returns the go command to build with: the one on PATH, else
// the one in $GOROOT/bin (go test sets GOROOT for the tests it runs).
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	exe := "go"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", exe); fileExists(p) {
			return p
		}
	}
	return exe
}

// fileExists reports whether a regular file is at p.
func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
