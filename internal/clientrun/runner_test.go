package clientrun

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/testutil"
)

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

// drive runs h.Drive(r) as a test would.
func drive(t *testing.T, h *Harness, r Runner) *testutil.FailTB {
	return testutil.Failing(t, func(tb *testutil.FailTB) { h.Drive(tb, r) })
}

// TestDriveStopsWhatAFailedStartStarted: a Start that fails ends the test
// with the fakes it started stopped, and the account of the run logged.
func TestDriveStopsWhatAFailedStartStarted(t *testing.T) {
	h := &Harness{Pkg: "pkgtest", EnvWork: "PKGTEST_WORK_UNSET", Jobs: Jobs{Env: "PKGTEST_JOBS"}}
	r := &fakeRunner{startErr: errors.New("no port")}
	f := drive(t, h, r)
	assert.Equal(t, []string{"start", "stop"}, r.steps)
	assert.Equal(t, []string{"pkgtest: no port"}, f.Errs)
	assert.Contains(t, f.Logs, "the account")

	r = &fakeRunner{outside: []string{"example.com:443"}}
	f = drive(t, h, r)
	assert.Equal(t, []string{"start", "exec", "stop", "collect", "stop"}, r.steps)
	assert.Equal(t, []string{`pkgtest: requests tried to reach other hosts: ["example.com:443"]`}, f.Errs)

	r = &fakeRunner{}
	f = drive(t, h, r)
	assert.Empty(t, f.Errs)
	assert.Empty(t, f.Logs, "no account of a run that passed")
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
