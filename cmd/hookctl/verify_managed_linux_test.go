//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// managedTestMount returns a managedMount that runs this test binary as
// hookctl, showing scratch folders at target.
func managedTestMount(t *testing.T, target string) *managedMount {
	t.Setenv(envTestMain, "1")
	exe, err := os.Executable()
	require.NoError(t, err)
	m := &managedMount{exe: exe, target: target}
	if err := m.probe(t.TempDir()); err != nil {
		if strings.Contains(err.Error(), "user namespaces unavailable") {
			t.Skipf("this machine refuses user namespaces: %v", err)
		}
		require.NoError(t, err)
	}
	m.active = true
	return m
}

// runInManagedNS runs sh -c script through the helper, with the scratch
// folder of dir at m's target.
func runInManagedNS(t *testing.T, m *managedMount, dir, script string) string {
	cmd := exec.Command("/bin/sh", "-c", script)
	require.NoError(t, m.wrap(cmd, dir))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// TestManagedNSOverlay shows a scratch folder at a target that does not
// exist: its parent becomes an overlay that holds it, writable (into a
// tmpfs) but for the target, which is read-only; the program runs as the
// same user; the real parent is as it was.
func TestManagedNSOverlay(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, "sys")
	write(t, filepath.Join(parent, "other"), "real", 0o644)
	target := filepath.Join(parent, "claude-code")
	m := managedTestMount(t, target)
	dir := filepath.Join(root, "run")
	write(t, filepath.Join(m.scratchDir(dir), "managed-settings.json"), "scratch", 0o644)

	out := runInManagedNS(t, m, dir, strings.NewReplacer("$T", target, "$P", parent).Replace(
		`cat "$T/managed-settings.json"; echo; ls "$P"; id -u; (echo x > "$T/new") 2>/dev/null || echo read-only; echo y > "$P/written" && echo wrote-parent`))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6, "%s", out)
	assert.Equal(t, "scratch", lines[0])
	assert.Equal(t, []string{"claude-code", "other"}, lines[1:3])
	assert.Equal(t, strconv.Itoa(os.Getuid()), lines[3], "the same user")
	assert.Equal(t, "read-only", lines[4])
	assert.Equal(t, "wrote-parent", lines[5])

	es, err := os.ReadDir(parent)
	require.NoError(t, err)
	require.Len(t, es, 1, "the real parent holds only what it held")
	assert.Equal(t, "real", read(t, filepath.Join(parent, "other")))
	_, err = os.Stat(filepath.Join(m.scratchDir(dir), "new"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestManagedNSBind shows a scratch folder over a target that exists: the
// program sees the scratch files only; the real ones are unchanged.
func TestManagedNSBind(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "claude-code")
	write(t, filepath.Join(target, "managed-settings.json"), "real", 0o644)
	write(t, filepath.Join(target, "managed-settings.d", "10-real.json"), "real drop-in", 0o644)
	m := managedTestMount(t, target)
	dir := filepath.Join(root, "run")
	write(t, filepath.Join(m.scratchDir(dir), "managed-settings.json"), "scratch", 0o644)

	out := runInManagedNS(t, m, dir, `cd "`+target+`" && ls -A && cat managed-settings.json`)
	assert.Equal(t, "managed-settings.json\nscratch", strings.TrimSpace(out), "the real drop-in is hidden")
	assert.Equal(t, "real", read(t, filepath.Join(target, "managed-settings.json")))
	assert.Equal(t, "real drop-in", read(t, filepath.Join(target, "managed-settings.d", "10-real.json")))
}

// TestVerifyManagedNotChecked runs hookctl verify where the kernel
// refuses user namespaces (user.max_user_namespaces 0 in the namespace
// the test makes): the managed hook is "not checked", with the reason,
// and verify says so on stderr.
func TestVerifyManagedNotChecked(t *testing.T) {
	if err := exec.Command("unshare", "-Ur", "true").Run(); err != nil {
		t.Skipf("the test needs unshare -Ur to refuse user namespaces to verify: %v", err)
	}
	e := newEnv(t)
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"),
		`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command("unshare", "-Ur", "sh", "-c", `echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"`, "sh",
		exe, "verify", "-json", "-project", e.project, "-claude", "/bin/true", "-netns", "off")
	cmd.Env = append(os.Environ(), envTestMain+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "a hook not checked is not a failure: %s", stderr.Bytes())
	var reps []hookReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &reps), "%s", stdout.Bytes())
	require.Len(t, reps, 1)
	assert.Equal(t, statusNotChecked, reps[0].Status)
	assert.Contains(t, reps[0].Why, "user namespaces unavailable")
	assert.Contains(t, reps[0].Why, "max_user_namespaces")
	assert.Contains(t, reps[0].Why, "/etc/claude-code")
	assert.Contains(t, stderr.String(), "the hooks of the managed settings are not checked")
}

// TestManagedNSOverlayKeepsMounts: where the overlay stands in for a
// parent that holds mounts (Docker binds /etc/hosts, /etc/resolv.conf and
// /etc/hostname over the image's files; Kubernetes mounts secrets under
// /etc), the program sees those mounts, not the files under them, which
// an overlay of the parent alone would show (one with a space in its
// path too, which /proc/self/mountinfo escapes).
func TestManagedNSOverlayKeepsMounts(t *testing.T) {
	if err := exec.Command("unshare", "-Urm", "true").Run(); err != nil {
		t.Skipf("the test needs unshare -Urm to mount over a file of the parent: %v", err)
	}
	root := t.TempDir()
	parent := filepath.Join(root, "sys")
	write(t, filepath.Join(parent, "hosts"), "image", 0o644)
	write(t, filepath.Join(parent, "my secrets", "secret"), "image secret", 0o644)
	write(t, filepath.Join(root, "hosts"), "runtime", 0o644)
	write(t, filepath.Join(root, "secrets", "secret"), "runtime secret", 0o644)
	target := filepath.Join(parent, "claude-code")
	m := managedTestMount(t, target)
	dir := filepath.Join(root, "run")
	write(t, filepath.Join(m.scratchDir(dir), "managed-settings.json"), "scratch", 0o644)

	cmd := exec.Command("/bin/sh", "-c", `cat "$0/hosts"; echo; cat "$0/my secrets/secret"; echo; cat "$0/claude-code/managed-settings.json"`, parent)
	require.NoError(t, m.wrap(cmd, dir))
	// The launcher's mounts, as a container runtime makes them, in a
	// namespace of the test's own; the helper runs in it.
	args := append([]string{"-Urm", "sh", "-c", `mount --bind "$1/hosts" "$2/hosts" && mount --bind "$1/secrets" "$2/my secrets" && shift 2 && exec "$@"`, "sh", root, parent, cmd.Path}, cmd.Args[1:]...)
	outer := exec.Command("unshare", args...)
	outer.Env = cmd.Env
	out, err := outer.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "runtime\nruntime secret\nscratch", strings.TrimSpace(string(out)))
}
