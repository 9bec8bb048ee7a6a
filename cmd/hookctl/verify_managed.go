package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gohooks/hook/settings"
)

// Claude Code reads its managed settings from a system folder
// (/etc/claude-code on Linux), which verify never writes. Where it can,
// verify runs Claude Code in a private user and mount namespace in which
// that folder shows the run's scratch managed settings (the user's, with
// verify's substitutions, as for every other scope) and the real one is
// untouched: see verify_managed_linux.go. Elsewhere, or when the
// namespace cannot be made, the hooks of the managed settings are "not
// checked", with the reason.

// managedHelper is the hidden command that sets up the namespace and
// starts Claude Code in it: hookctl __managedns -src DIR -target DIR
// -tmp DIR [-check] [-- COMMAND [ARGS...]].
const managedHelper = "__managedns"

// managedExitFailed is the exit code of the helper when it could not set
// the namespace up, with managedFailPrefix before its message on stderr.
const (
	managedExitFailed = 125
	managedFailPrefix = "hookctl verify: managed settings namespace: "
)

// managedMount shows a run's scratch managed settings to Claude Code at
// the system folder it reads them from.
type managedMount struct {
	// active: the user has managed settings and runs go through the
	// namespace; the scratch managed folder of every run replaces the
	// system one, so that none of the real managed hooks run either.
	active bool
	// target is the system folder Claude Code reads; src is the user's
	// managed folder verify read (target, unless HOOKCTL_MANAGED_DIR).
	target, src string
	// exe is hookctl, which becomes the namespace helper.
	exe string
	// why says why the managed hooks are not checked; "" when they are.
	why string
}

// newManagedMount decides whether verify can show Claude Code scratch
// managed settings here, trying the namespace once in work. It is
// inactive without managed settings.
func newManagedMount(l *loaded, exe, work string, log io.Writer) *managedMount {
	m := &managedMount{exe: exe, src: l.locs.ManagedDir}
	has := false
	for _, src := range l.sources {
		has = has || src.Scope == settings.ScopeManaged
	}
	if !has {
		return m
	}
	def, err := settings.DefaultLocations(l.locs.Project)
	if err != nil || def.ManagedDir == "" {
		m.why = fmt.Sprintf("Claude Code's managed settings folder is unknown here: %v", err)
		return m
	}
	m.target = def.ManagedDir
	if err := m.probe(work); err != nil {
		m.why = "verify cannot show Claude Code scratch managed settings at " + m.target + " without writing it: " + err.Error()
		fmt.Fprintf(log, "hookctl verify: the hooks of the managed settings are not checked: %s\n", m.why)
		return m
	}
	m.active = true
	return m
}

// skip returns why the hooks of the managed settings are not checked, or
// "" when they are.
func (m *managedMount) skip() string {
	if m.on() {
		return ""
	}
	if m == nil || m.why == "" {
		return "managed settings are read by Claude Code from the system folder, where verify cannot put its recorder"
	}
	return m.why
}

// on reports whether runs go through the namespace.
func (m *managedMount) on() bool { return m != nil && m.active }

// scratchDir returns the scratch managed folder of the run in dir.
func (m *managedMount) scratchDir(dir string) string { return filepath.Join(dir, "managed") }

// scratchPath returns where the user's managed settings file p goes in
// the run's scratch managed folder: at the same place relative to the
// managed folder (managed-settings.json, managed-settings.d/NAME.json).
func (m *managedMount) scratchPath(dir, p string) (string, error) {
	rel, err := filepath.Rel(m.src, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("managed settings file %s is outside %s", p, m.src)
	}
	return filepath.Join(m.scratchDir(dir), rel), nil
}

// prepare copies what the user's managed folder holds besides the
// settings files into the run's scratch managed folder, as copyTree
// copies the others: nothing of the managed configuration is lost, and
// no credential is copied. managed-mcp.json is left out as the user's
// and project's MCP servers are: verify gives Claude Code its own MCP
// configuration (--strict-mcp-config, which Claude Code refuses while a
// managed MCP configuration is present), with only its probe server.
func (m *managedMount) prepare(dir string) ([]string, error) {
	if !m.on() {
		return nil, nil
	}
	dst := m.scratchDir(dir)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, err
	}
	copied, err := copyTree(m.src, dst, []string{"managed-settings.json", "managed-settings.d", "managed-mcp.json"}, true)
	if err != nil {
		return nil, fmt.Errorf("copying the managed settings folder %s: %w", m.src, err)
	}
	return copied, nil
}

// helperArgs returns the arguments of the namespace helper that shows
// the run in dir its scratch managed folder, then runs argv.
func (m *managedMount) helperArgs(dir string, check bool, argv ...string) []string {
	args := []string{m.exe, managedHelper, "-src", m.scratchDir(dir), "-target", m.target, "-tmp", filepath.Join(dir, "ns")}
	if check {
		args = append(args, "-check")
	}
	return append(append(args, "--"), argv...)
}

// wrap makes cmd (the run of Claude Code in the scratch dir) start
// through the namespace helper, when m is active.
func (m *managedMount) wrap(cmd *exec.Cmd, dir string) error {
	if !m.on() {
		return nil
	}
	cmd.Args = m.helperArgs(dir, false, append([]string{cmd.Path}, cmd.Args[1:]...)...)
	cmd.Path = m.exe
	return enterManagedNS(cmd)
}

// failed returns the helper's error when the run ended because the
// namespace could not be set up (its exit code and first stderr line).
func (m *managedMount) failed(exit int, stderr string) error {
	if !m.on() || exit != managedExitFailed || !strings.HasPrefix(stderr, managedFailPrefix) {
		return nil
	}
	return fmt.Errorf("%s", strings.TrimPrefix(stderr, "hookctl verify: "))
}

// probe runs the helper once with -check in a folder of work: it sets the
// namespace up and checks that the target shows the scratch folder.
func (m *managedMount) probe(work string) error {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	dir, err := os.MkdirTemp(work, "managed-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := writeFileMkdir(filepath.Join(m.scratchDir(dir), managedProbeFile), []byte("hookctl verify\n")); err != nil {
		return err
	}
	args := m.helperArgs(dir, true)
	cmd := exec.Command(m.exe, args[1:]...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := enterManagedNS(cmd); err != nil {
		return err
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out.String()), managedFailPrefix))
		if msg == "" {
			msg = err.Error()
		}
		if _, ok := err.(*exec.ExitError); !ok {
			msg = startError(err)
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// managedProbeFile is the file the probe's scratch folder holds, which
// the helper with -check looks for at the target.
const managedProbeFile = "hookctl-verify-probe"
