package clientrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file holds how claudetest and codextest drive one run of their
// client from a test: skipping where the client cannot run, the run's
// folder, the order of the steps, the client process and the account of a
// failed run. Each package describes itself in a [Harness].

// TB is the part of testing.TB a run uses (clientrun does not import
// testing, since hookctl links it too).
type TB interface {
	Helper()
	Name() string
	TempDir() string
	Cleanup(func())
	Failed() bool
	Log(args ...any)
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Harness is a package that runs a real client from go test: its names,
// the environment variables it reads, and what its runs share.
type Harness struct {
	// Pkg is the package's name ("claudetest"), which starts its messages.
	Pkg string
	// Client is the client's product name ("Claude Code"); Command its
	// executable's ("claude"), which names its output files (claude.out,
	// claude.err) and the process in messages.
	Client, Command string
	// Version is the release the package is verified against.
	Version string
	// DirPrefix goes before a test's name in the run folders kept under
	// $HOOK_E2E_WORK, so that two packages' runs do not meet.
	DirPrefix string
	// EnvEnable turns the runs on ("1"); EnvVersion asks for another
	// version than Version; EnvWork keeps the run folders under it;
	// EnvTimeout sets the seconds one run may take; EnvHelper switches
	// the test binary into a helper (see [HelperMain]).
	EnvEnable, EnvVersion, EnvWork, EnvTimeout, EnvHelper string
	// Jobs limits the runs at a time.
	Jobs Jobs
	// Ensure finds or installs the client, once per process; an error
	// wrapping Unavailable skips the test.
	Ensure      func(log io.Writer) (bin, version string, err error)
	Unavailable error
	// Verified reports whether a version line is of Version.
	Verified func(version string) bool
	// NetNote says what network the runs use (see [NetNote]).
	NetNote func() string

	logOnce sync.Once
	mu      sync.Mutex
	runs    map[string]int // runs of each test under EnvWork
}

// Enabled reports whether the environment turns the runs on.
func (h *Harness) Enabled() bool { return os.Getenv(h.EnvEnable) == "1" }

// WantVersion returns the version to install: EnvVersion's, else Version.
func (h *Harness) WantVersion() string {
	if v := os.Getenv(h.EnvVersion); v != "" {
		return v
	}
	return h.Version
}

// Need skips t, with one message saying why, unless the runs are on and
// the client can be run here, and returns the client's executable. The
// first call logs which client runs, and on what network.
func (h *Harness) Need(t TB) string {
	t.Helper()
	if !h.Enabled() {
		t.Skipf("%s: this test runs the real %s %s: set %s=1 to run it (it installs %s with npm into the user cache folder on first use)", h.Pkg, h.Client, h.WantVersion(), h.EnvEnable, h.Client)
	}
	bin, version, err := h.Ensure(os.Stderr)
	if errors.Is(err, h.Unavailable) {
		t.Skipf("%v", err)
	}
	if err != nil {
		t.Fatalf("%s: %v", h.Pkg, err)
	}
	first := false
	h.logOnce.Do(func() { first = true })
	if first {
		note := ""
		if !h.Verified(version) {
			note = fmt.Sprintf("; warning: %s is verified against %s", h.Pkg, h.Version)
		}
		t.Logf("%s: %s %q (%s), %s%s", h.Pkg, h.Client, version, bin, h.NetNote(), note)
	}
	return bin
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// RunDir returns a fresh folder for one run of t: under $EnvWork (kept,
// one per run of the test) when set, else a temporary folder.
func (h *Harness) RunDir(t TB) (string, error) {
	work := os.Getenv(h.EnvWork)
	if work == "" {
		return t.TempDir(), nil
	}
	name := h.DirPrefix + unsafeName.ReplaceAllString(t.Name(), "_")
	h.mu.Lock()
	if h.runs == nil {
		h.runs = map[string]int{}
	}
	h.runs[name]++
	if n := h.runs[name]; n > 1 {
		name += "." + strconv.Itoa(n) // the test's second run, …
	}
	h.mu.Unlock()
	dir := filepath.Join(work, name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Abs(dir)
}

// NewFolder makes the folder of one run of t (see [MakeFolder]), for the
// running test binary.
func (h *Harness) NewFolder(t TB) (Folder, error) {
	dir, err := h.RunDir(t)
	if err != nil {
		return Folder{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return Folder{}, fmt.Errorf("finding the test binary: %w", err)
	}
	return MakeFolder(dir, exe, h.EnvHelper)
}

// Runner is one run of a package's client, in the steps [Harness.Drive]
// takes.
type Runner interface {
	// Start starts the fakes and writes the configuration.
	Start() error
	// Exec runs the client.
	Exec() error
	// Stop stops what Start started; it may be called more than once.
	Stop()
	// Collect reads what the run left.
	Collect() error
	// Outside returns the hosts something tried to reach.
	Outside() []string
	// Diagnose returns an account of the run for a failure message.
	Diagnose() string
}

// Drive runs r for t: it starts it, runs the client while holding a place
// of Jobs, stops it and collects what it left. It fails t when a step
// fails, and when anything tried to reach another host; on failure it
// logs r's account of the run.
func (h *Harness) Drive(t TB, r Runner) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(r.Diagnose())
			if os.Getenv(h.EnvWork) == "" {
				t.Logf("%s: set %s to a folder to keep the run folders for inspection", h.Pkg, h.EnvWork)
			}
		}
	})
	defer r.Stop() // also when a Fatalf ends the test
	if err := r.Start(); err != nil {
		t.Fatalf("%s: %v", h.Pkg, err)
	}
	jobs := h.Jobs.Places()
	jobs <- struct{}{}
	err := r.Exec()
	<-jobs
	r.Stop()
	if err != nil {
		t.Fatalf("%s: %v", h.Pkg, err)
	}
	if err := r.Collect(); err != nil {
		t.Fatalf("%s: reading the run: %v", h.Pkg, err)
	}
	if out := r.Outside(); len(out) > 0 {
		t.Errorf("%s: requests tried to reach other hosts: %q", h.Pkg, out)
	}
}

// Proc is what the client process did.
type Proc struct {
	// Stdout and Stderr are its output.
	Stdout, Stderr []byte
	// ExitCode is its exit code, -1 when it was killed or did not start.
	ExitCode int
	// Elapsed is its wall time.
	Elapsed time.Duration
}

// Exec runs the client bin with args and the whole environment env in
// f.Project, in a process group of its own that it ends afterwards (with
// the hooks and MCP servers the client left), within the run's time
// limit. run, if not nil, runs cmd instead of cmd.Run, with the buffer
// the client's stdout goes to. The output is also kept in f.Dir
// (<Command>.out, <Command>.err). An exit code other than 0 is not an
// error; not finishing in time is.
func (h *Harness) Exec(f Folder, bin string, args, env []string, run func(cmd *exec.Cmd, stdout *bytes.Buffer) error) (Proc, error) {
	limit := RunTimeout(h.EnvTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = f.Project
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Own process group, so that a timeout ends the hooks and the MCP
	// servers too.
	OwnProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	t0 := time.Now()
	var err error
	if run != nil {
		err = run(cmd, &stdout)
	} else {
		err = cmd.Run()
	}
	p := Proc{Elapsed: time.Since(t0), ExitCode: -1}
	// Leftovers of the run (an MCP server the client did not stop).
	KillProcessGroup(cmd)
	p.Stdout, p.Stderr = stdout.Bytes(), stderr.Bytes()
	os.WriteFile(filepath.Join(f.Dir, h.Command+".out"), p.Stdout, 0o644)
	os.WriteFile(filepath.Join(f.Dir, h.Command+".err"), p.Stderr, 0o644)
	if cmd.ProcessState != nil {
		p.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() == context.DeadlineExceeded {
		return p, fmt.Errorf("%s did not finish within %v (set %s for another limit)", h.Command, limit, h.EnvTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return p, fmt.Errorf("running %s: %w", h.Command, err)
	}
	return p, nil
}

// Requester is a fake model API as an account of the run sees it.
type Requester interface{ Requests() []*Request }

// Diagnose returns a short account of a run for a failure message: its
// folder, the client's exit and stderr, every hook run the recorders kept
// in f, and the requests api got (api may be nil: not started).
func (h *Harness) Diagnose(f Folder, p Proc, api Requester) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: run folder %s; %s exit %d after %v", h.Pkg, f.Dir, h.Command, p.ExitCode, p.Elapsed.Round(time.Millisecond))
	if s := strings.TrimSpace(string(p.Stderr)); s != "" {
		fmt.Fprintf(&b, "\n%s stderr: %.3000s", h.Command, s)
	}
	recs, _ := ReadRecords(f.CapDir())
	for _, r := range recs {
		fmt.Fprintf(&b, "\nhook %d %s %s %s: exit %d, stdout %.300q, stderr %.300q", r.Seq, r.Label, r.Event, r.Tool, r.Code, r.Out, r.Err)
	}
	if api != nil {
		for _, q := range api.Requests() {
			fmt.Fprintf(&b, "\napi %d %s %s -> %s", q.Seq, q.Method, q.Target, q.Answered)
		}
	}
	return b.String()
}
