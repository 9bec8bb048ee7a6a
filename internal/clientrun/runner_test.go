package clientrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeTB records what a run reports instead of failing the test.
type fakeTB struct {
	*testing.T
	errs, logs []string
	cleanups   []func()
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) { f.Errorf(format, args...); runtime.Goexit() }
func (f *fakeTB) Failed() bool                      { return len(f.errs) > 0 }
func (f *fakeTB) Log(args ...any)                   { f.logs = append(f.logs, fmt.Sprint(args...)) }
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// fakeRunner is a run whose steps fail as told, and which counts them.
type fakeRunner struct {
	startErr, execErr error
	steps             []string
	outside           []string
}

func (r *fakeRunner) Start() error      { r.steps = append(r.steps, "start"); return r.startErr }
func (r *fakeRunner) Exec() error       { r.steps = append(r.steps, "exec"); return r.execErr }
func (r *fakeRunner) Stop()             { r.steps = append(r.steps, "stop") }
func (r *fakeRunner) Collect() error    { r.steps = append(r.steps, "collect"); return nil }
func (r *fakeRunner) Outside() []string { return r.outside }
func (r *fakeRunner) Diagnose() string  { return "the account" }

// drive runs h.Drive(r) as a test would, then its cleanups.
func drive(t *testing.T, h *Harness, r Runner) *fakeTB {
	f := &fakeTB{T: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.Drive(f, r)
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	return f
}

// TestDriveStopsWhatAFailedStartStarted: a Start that fails ends the test
// with the fakes it started stopped, and the account of the run logged.
func TestDriveStopsWhatAFailedStartStarted(t *testing.T) {
	h := &Harness{Pkg: "pkgtest", EnvWork: "PKGTEST_WORK_UNSET", Jobs: Jobs{Env: "PKGTEST_JOBS"}}
	r := &fakeRunner{startErr: errors.New("no port")}
	f := drive(t, h, r)
	assert.Equal(t, []string{"start", "stop"}, r.steps)
	assert.Equal(t, []string{"pkgtest: no port"}, f.errs)
	assert.Contains(t, f.logs, "the account")

	r = &fakeRunner{outside: []string{"example.com:443"}}
	f = drive(t, h, r)
	assert.Equal(t, []string{"start", "exec", "stop", "collect", "stop"}, r.steps)
	assert.Equal(t, []string{`pkgtest: requests tried to reach other hosts: ["example.com:443"]`}, f.errs)

	r = &fakeRunner{}
	f = drive(t, h, r)
	assert.Empty(t, f.errs)
	assert.Empty(t, f.logs, "no account of a run that passed")
}

// TestFolderKeepsFilesInTheProject: Session.Files paths that leave the
// project, or are rooted, are refused on every platform.
func TestFolderKeepsFilesInTheProject(t *testing.T) {
	f, err := MakeFolder(t.TempDir(), "/bin/test", "PKG_HELPER")
	require.NoError(t, err)
	for _, rel := range []string{"", ".", "..", "../x", "a/../../x", "/etc/x", `\x`, "C:x", `C:\x`} {
		if rel == `\x` && runtime.GOOS != "windows" {
			continue // a file name on Unix
		}
		if strings.HasPrefix(rel, "C:") && runtime.GOOS != "windows" {
			continue
		}
		_, err := f.ProjectFile(rel)
		assert.Error(t, err, "%q", rel)
	}
	require.NoError(t, f.WriteFiles(map[string]string{"a/b.txt": "B"}))
	got, ok := ReadProjectFile(f.Project, "a/b.txt")
	assert.True(t, ok)
	assert.Equal(t, "B", got)
	assert.Equal(t, `PKG_HELPER=hooktap '/bin/test' '`+filepath.Join(f.Dir, "cap")+`' 'it'\''s' '/x y'`, f.HookCommand("it's", []string{"/x y"}))
	assert.Equal(t, "run 'it'", f.WithoutRecorder("run "+f.HookCommand("it", nil)))
	_, err = os.Stat(f.CapDir())
	assert.NoError(t, err)
}
