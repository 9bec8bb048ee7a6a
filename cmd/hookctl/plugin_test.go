package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/settings"
)

// fakePlugin makes a plugin folder (with a space in its path) whose bin
// holds, for every target, a script that prints its own file name and
// the line it reads on stdin, and exits 3.
func fakePlugin(t *testing.T, name string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "my plugin")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
	for _, tg := range pluginTargets {
		b := binName(name, tg)
		// Builtins only: the runs below have no PATH.
		script := "#!/bin/sh\nread -r line\nprintf '%s|%s' " + b + " \"$line\"\nexit 3\n"
		require.NoError(t, os.WriteFile(filepath.Join(root, "bin", b), []byte(script), 0o755))
	}
	return root
}

// runLaunch runs command with shell -c as Claude Code does, with env as
// the whole environment, "in" on stdin, and returns stdout and the exit
// code; the shell must write nothing on stderr.
func runLaunch(t *testing.T, shell, command string, env []string, in string) (string, int) {
	t.Helper()
	out, errOut, code := runLaunchStderr(t, shell, command, env, in)
	assert.Empty(t, errOut, "stderr of %s", shell)
	return out, code
}

// runLaunchStderr is runLaunch returning stderr too.
func runLaunchStderr(t *testing.T, shell, command string, env []string, in string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(shell, "-c", command)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

// posixShells are the shells the default launch command is run in: bash,
// the system's sh, and dash (Debian's and Ubuntu's /bin/sh) when it is
// installed.
func posixShells(t *testing.T) []string {
	var out []string
	for _, sh := range []string{"bash", "sh", "dash"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			require.NotEqual(t, "sh", sh, "no sh")
			t.Logf("%s is not installed: the launch command was not run in it", sh)
			continue
		}
		out = append(out, p)
	}
	return out
}

// TestLaunchCommandBeforeLinux61 runs the launch command in each POSIX
// shell where /proc/sys/kernel/arch is missing (Linux before 6.1): the
// machine comes from uname, and the shell writes nothing on stderr, so
// that the hook's stderr (the block reason when it exits 2) is the
// binary's own. dash used to print "cannot open /proc/sys/kernel/arch"
// there. Without uname either, the command names the missing binary in
// one line and exits 127, never 2.
func TestLaunchCommandBeforeLinux61(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fallback reads Linux's /proc")
	}
	const name = "guard"
	root := fakePlugin(t, name)
	machine, err := exec.Command("uname", "-m").Output()
	require.NoError(t, err)
	arch := strings.TrimSpace(string(machine))
	want := map[string]string{"x86_64": "amd64", "aarch64": "arm64"}[arch]
	// A binary that writes its block reason on stderr and exits 2.
	for _, tg := range pluginTargets {
		script := "#!/bin/sh\necho 'rm -rf is not allowed' >&2\nexit 2\n"
		require.NoError(t, os.WriteFile(filepath.Join(root, "bin", binName("blocker", tg)), []byte(script), 0o755))
	}
	missing := filepath.Join(t.TempDir(), "no-such-dir", "arch")
	command, err := launchScript(shellDefault, name, missing)
	require.NoError(t, err)
	blocker, err := launchScript(shellDefault, "blocker", missing)
	require.NoError(t, err)
	for _, sh := range posixShells(t) {
		t.Run(filepath.Base(sh), func(t *testing.T) {
			// No OSTYPE/HOSTTYPE in the environment: dash has none, and
			// bash sets its own, so unset them in the command for bash.
			unset := "unset OSTYPE HOSTTYPE; "
			env := []string{"CLAUDE_PLUGIN_ROOT=" + root, "PATH=" + os.Getenv("PATH")}
			if want != "" {
				out, code := runLaunch(t, sh, unset+command, env, "in\n")
				assert.Equal(t, "guard-linux-"+want+"|in", out)
				assert.Equal(t, 3, code)
				out, errOut, code := runLaunchStderr(t, sh, unset+blocker, env, "")
				assert.Empty(t, out)
				assert.Equal(t, "rm -rf is not allowed\n", errOut, "the block reason is the binary's stderr alone")
				assert.Equal(t, 2, code)
			}
			// No uname on the PATH either: one line naming the binary.
			out, errOut, code := runLaunchStderr(t, sh, unset+command, []string{"CLAUDE_PLUGIN_ROOT=" + root, "PATH=" + t.TempDir()}, "")
			assert.Empty(t, out)
			assert.Equal(t, 127, code)
			assert.Equal(t, "no guard binary for this system (linux/): "+root+"/bin/guard-linux-\n", errOut)
		})
	}
}

// TestLaunchCommandMissingBinary checks that a system with no binary (a
// plugin built without it) gets one line naming the file and exit code
// 127, a non-blocking error, in each POSIX shell, and a binary that is
// not executable one line and 126, instead of the shell's own message.
func TestLaunchCommandMissingBinary(t *testing.T) {
	root := t.TempDir()
	command, err := launchCommand(shellDefault, "guard")
	require.NoError(t, err)
	for _, sh := range posixShells(t) {
		env := []string{"CLAUDE_PLUGIN_ROOT=" + root, "OSTYPE=linux-gnu", "HOSTTYPE=riscv64"}
		out, errOut, code := runLaunchStderr(t, sh, command, env, "")
		assert.Empty(t, out, sh)
		assert.Equal(t, 127, code, sh)
		assert.Equal(t, "no guard binary for this system (linux/riscv64): "+root+"/bin/guard-linux-riscv64\n", errOut, sh)
	}
	// A binary that lost its execute permission: one line, exit 126.
	require.NoError(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
	bin := filepath.Join(root, "bin", "guard-linux-amd64")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o644))
	for _, sh := range posixShells(t) {
		env := []string{"CLAUDE_PLUGIN_ROOT=" + root, "OSTYPE=linux-gnu", "HOSTTYPE=x86_64"}
		out, errOut, code := runLaunchStderr(t, sh, command, env, "")
		assert.Empty(t, out, sh)
		assert.Equal(t, 126, code, sh)
		assert.Equal(t, bin+" is not executable\n", errOut, sh)
	}
}

// TestLaunchCommandPicksTheBinary runs the default-shell launch command
// with the $OSTYPE and $HOSTTYPE bash sets on each system Claude Code
// runs on (macOS, Linux, Windows with Git Bash, which is MSYS) in bash and
// in the system's sh, with no PATH, so that it can start no uname or
// other helper: it must exec the right binary, which gets the hook's
// stdin and whose exit code is the hook's.
func TestLaunchCommandPicksTheBinary(t *testing.T) {
	const name = "guard"
	root := fakePlugin(t, name)
	command, err := launchCommand(shellDefault, name)
	require.NoError(t, err)
	cases := []struct {
		system, ostype, hosttype, want string
	}{
		{"macOS on Apple silicon (/bin/bash)", "darwin23", "arm64", "guard-darwin-arm64"},
		{"macOS on Apple silicon (Homebrew bash)", "darwin24.1.0", "aarch64", "guard-darwin-arm64"},
		{"macOS on Intel", "darwin22", "x86_64", "guard-darwin-amd64"},
		{"Linux on x86-64", "linux-gnu", "x86_64", "guard-linux-amd64"},
		{"Linux on arm64", "linux-gnu", "aarch64", "guard-linux-arm64"},
		{"Linux with musl", "linux-musl", "aarch64", "guard-linux-arm64"},
		{"Windows, Git Bash on x64", "msys", "x86_64", "guard-windows-amd64.exe"},
		{"Windows, Git Bash on ARM64", "msys", "aarch64", "guard-windows-arm64.exe"},
		{"Windows, Cygwin", "cygwin", "x86_64", "guard-windows-amd64.exe"},
	}
	for _, sh := range posixShells(t) {
		shell := filepath.Base(sh)
		for _, c := range cases {
			t.Run(shell+"/"+c.system, func(t *testing.T) {
				env := []string{"CLAUDE_PLUGIN_ROOT=" + root, "OSTYPE=" + c.ostype, "HOSTTYPE=" + c.hosttype}
				out, code := runLaunch(t, sh, command, env, "the input\n")
				assert.Equal(t, c.want+"|the input", out)
				assert.Equal(t, 3, code, "the binary's exit code is the hook's")
			})
		}
	}
	if runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") {
		// What Claude Code runs on Linux: /bin/sh -c, and in dash neither
		// variable is set; the binary comes from /proc without uname.
		t.Run("/bin/sh without OSTYPE and HOSTTYPE", func(t *testing.T) {
			out, code := runLaunch(t, "/bin/sh", command, []string{"CLAUDE_PLUGIN_ROOT=" + root}, "x\n")
			assert.Equal(t, "guard-linux-"+runtime.GOARCH+"|x", out)
			assert.Equal(t, 3, code)
		})
	}
}

// TestLaunchCommandPowerShell checks the PowerShell form: it picks the
// binary from $env:PROCESSOR_ARCHITECTURE on Windows and .NET's
// RuntimeInformation elsewhere, and exits with the binary's code. When
// pwsh is installed it is run too.
func TestLaunchCommandPowerShell(t *testing.T) {
	command, err := launchCommand(shellPowerShell, "guard")
	require.NoError(t, err)
	assert.Contains(t, command, `$env:PROCESSOR_ARCHITECTURE`)
	assert.Contains(t, command, `-match 'arm64'`)
	assert.Contains(t, command, `$f = "$env:CLAUDE_PLUGIN_ROOT/bin/guard-$o-$a$x";`)
	assert.Contains(t, command, `& $f; exit $LASTEXITCODE`)
	assert.Contains(t, command, `exit 127`, "a missing binary must not exit 0")
	assert.NotContains(t, command, "uname", "no helper process")
	pwsh, err := exec.LookPath("pwsh")
	if err != nil {
		t.Log("pwsh is not installed: the PowerShell form was not run")
		return
	}
	root := fakePlugin(t, "guard")
	out, code := runLaunch(t, pwsh, command, append(os.Environ(), "CLAUDE_PLUGIN_ROOT="+root), "in\n")
	assert.Contains(t, out, "guard-"+runtime.GOOS+"-")
	assert.Equal(t, 3, code)
}

func TestLaunchCommandRefusesNamesThatNeedQuoting(t *testing.T) {
	for _, n := range []string{"", "..", "a b", `a"b`, "a$b", "a/b", `a\b`, "a;b"} {
		_, err := launchCommand(shellDefault, n)
		assert.Error(t, err, "%q", n)
	}
	_, err := launchCommand("zsh", "guard")
	assert.Error(t, err)
}

// TestPluginBuild builds a hook into a plugin folder that already has a
// hooks.json of its own, twice, and checks that the binaries are the
// same bytes, that the file keeps every byte it had, that the manifest is
// written, and that the registered command runs the binary built for
// this system.
func TestPluginBuild(t *testing.T) {
	host := target{runtime.GOOS, runtime.GOARCH}
	targets := []target{{"windows", "arm64"}}
	if knownTarget(host) && host != targets[0] {
		targets = append(targets, host)
	}
	var list []string
	for _, tg := range targets {
		list = append(list, tg.String())
	}
	const existing = "{\n\t\"description\": \"mine\",\n\t\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n"
	var dirs []string
	for i := range 2 {
		dir := filepath.Join(t.TempDir(), "My Plugin")
		if i == 0 {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "hooks"), 0o755))
			require.NoError(t, os.WriteFile(settings.PluginHooksFile(dir), []byte(existing), 0o644))
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"plugin", "build", "-dir", dir, "-event", "PreToolUse", "-matcher", "Bash",
			"-on-failure", "block", "-targets", strings.Join(list, ","), "./testdata/pluginhook"}, &stdout, &stderr)
		require.Equal(t, 0, code, "stderr: %s", stderr.String())
		assert.Contains(t, stdout.String(), "registered")
		dirs = append(dirs, dir)
	}
	for _, tg := range targets {
		a, err := os.ReadFile(filepath.Join(dirs[0], "bin", binName("pluginhook", tg)))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dirs[1], "bin", binName("pluginhook", tg)))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "%s: two builds differ", tg)
	}
	manifest, err := os.ReadFile(filepath.Join(dirs[0], ".claude-plugin", "plugin.json"))
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"name\": \"my-plugin\"\n}\n", string(manifest))

	command, err := launchCommand(shellDefault, "pluginhook")
	require.NoError(t, err)
	entry := settings.Entry{Event: "PreToolUse", Matcher: "Bash",
		Handler: settings.Handler{Type: settings.TypeCommand, Command: command, OnFailure: "block"}}
	data, err := os.ReadFile(settings.PluginHooksFile(dirs[0]))
	require.NoError(t, err)
	back, n, err := settings.Remove(data, entry)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the entry is registered once:\n%s", data)
	assert.Equal(t, existing, string(back), "the plugin's own hooks.json bytes are kept")

	// A second build into the same folder registers nothing new.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"plugin", "build", "-dir", dirs[0], "-event", "PreToolUse", "-matcher", "Bash",
		"-on-failure", "block", "-targets", "windows/arm64", "./testdata/pluginhook"}, &stdout, &stderr), stderr.String())
	again, err := os.ReadFile(settings.PluginHooksFile(dirs[0]))
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again))

	if runtime.GOOS != "windows" && knownTarget(host) {
		sh, err := exec.LookPath("sh")
		require.NoError(t, err)
		out, code := runLaunch(t, sh, command, []string{"CLAUDE_PLUGIN_ROOT=" + dirs[1], "PATH=" + os.Getenv("PATH")}, "{}")
		assert.Equal(t, host.String()+" {}", out)
		assert.Equal(t, 3, code)
	}
}

func TestPluginBuildUsage(t *testing.T) {
	for _, args := range [][]string{
		{"plugin"},
		{"plugin", "pack"},
		{"plugin", "build", "-event", "PreToolUse", "./x"},
		{"plugin", "build", "-dir", "d", "./x"},
		{"plugin", "build", "-dir", "d", "-event", "PreToolUse"},
		{"plugin", "build", "-dir", "d", "-event", "PreToolUse", "-targets", "plan9/386", "./x"},
		{"plugin", "build", "-dir", "d", "-event", "PreToolUse", "-on-failure", "stop", "./x"},
		{"plugin", "build", "-dir", "d", "-event", "PreToolUse", "-name", "a b", "./x"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%q", args)
		assert.NotEmpty(t, stderr.String(), "%q", args)
	}
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{"My Plugin": "my-plugin", "guard_v2": "guard-v2", "--x--": "x", "ÄÖ": ""} {
		assert.Equal(t, want, kebab(in), in)
	}
}

// TestPluginBuildPowerShell: with -shell powershell the entry carries
// "shell": "powershell" and the PowerShell form of the command, and a
// build with another -name adds a second entry beside the first.
func TestPluginBuildPowerShell(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"guard", "guard2"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"plugin", "build", "-dir", dir, "-event", "PreToolUse", "-matcher", "Bash",
			"-shell", "powershell", "-name", name, "-targets", "windows/arm64", "./testdata/pluginhook"}, &stdout, &stderr)
		require.Equal(t, 0, code, "stderr: %s", stderr.String())
		assert.FileExists(t, filepath.Join(dir, "bin", name+"-windows-arm64.exe"))
	}
	hooks, err := settings.ReadFile(settings.PluginHooksFile(dir))
	require.NoError(t, err)
	require.Len(t, hooks, 2)
	for i, name := range []string{"guard", "guard2"} {
		want, err := launchCommand(shellPowerShell, name)
		require.NoError(t, err)
		assert.Equal(t, "PreToolUse", hooks[i].Event)
		assert.Equal(t, "powershell", hooks[i].Handler.Shell)
		assert.Equal(t, want, hooks[i].Handler.Command)
	}
}

// oldLauncher is the launch command hookctl plugin build wrote for a
// binary named guard before the command stopped writing to stderr.
const oldLauncher = `case "${OSTYPE:-}" in darwin*) o=darwin;; linux*) o=linux;; msys*|cygwin*) o=windows;;` +
	` '') if [ -e /proc/version ]; then o=linux; else o=$(uname -s); fi;; *) o=$OSTYPE;; esac;` +
	` case $o in Darwin) o=darwin;; Linux) o=linux;; MINGW*|MSYS*|CYGWIN*) o=windows;; esac;` +
	` a=${HOSTTYPE:-}; if [ -z "$a" ]; then read -r a < /proc/sys/kernel/arch 2>/dev/null || a=$(uname -m); fi;` +
	` case $a in x86_64|amd64) a=amd64;; aarch64|arm64) a=arm64;; esac;` +
	` x=; if [ "$o" = windows ]; then x=.exe; fi;` +
	` exec "${CLAUDE_PLUGIN_ROOT}/bin/guard-$o-$a$x"`

// TestRebuildReplacesOldLauncher checks that a new build into a plugin
// registered by an earlier hookctl replaces the old launch command rather
// than adding a second entry that would run the hook twice, and leaves
// other hooks, another binary's launcher and other matchers alone.
func TestRebuildReplacesOldLauncher(t *testing.T) {
	other := strings.ReplaceAll(oldLauncher, "/bin/guard-", "/bin/other-")
	file := settings.Entry{Event: "PreToolUse", Matcher: "Bash", Handler: settings.Handler{Type: settings.TypeCommand, Command: oldLauncher}}
	data, _, err := settings.Add([]byte("{\n  \"hooks\": {}\n}\n"), file)
	require.NoError(t, err)
	for _, keep := range []settings.Entry{
		{Event: "PreToolUse", Matcher: "Bash", Handler: settings.Handler{Type: settings.TypeCommand, Command: other}},
		{Event: "PreToolUse", Matcher: "Edit", Handler: settings.Handler{Type: settings.TypeCommand, Command: oldLauncher}},
		{Event: "Stop", Handler: settings.Handler{Type: settings.TypeCommand, Command: "/opt/stop"}},
	} {
		data, _, err = settings.Add(data, keep)
		require.NoError(t, err)
	}
	command, err := launchCommand(shellDefault, "guard")
	require.NoError(t, err)
	e := settings.Entry{Event: "PreToolUse", Matcher: "Bash", Handler: settings.Handler{Type: settings.TypeCommand, Command: command}}
	out, err := replaceLaunchers(data, e, "guard")
	require.NoError(t, err)
	out, changed, err := settings.Add(out, e)
	require.NoError(t, err)
	assert.True(t, changed)
	hs, err := settings.Parse(out)
	require.NoError(t, err)
	var got []string
	for _, h := range hs {
		got = append(got, h.Event+"["+h.Matcher+"] "+map[bool]string{true: "old guard", false: "new guard"}[h.Handler.Command == oldLauncher])
		if h.Handler.Command == other {
			got[len(got)-1] = h.Event + "[" + h.Matcher + "] other"
		} else if h.Handler.Command == "/opt/stop" {
			got[len(got)-1] = "Stop stop"
		}
	}
	assert.ElementsMatch(t, []string{"PreToolUse[Bash] other", "PreToolUse[Bash] new guard", "PreToolUse[Edit] old guard", "Stop stop"}, got)
	again, err := replaceLaunchers(out, e, "guard")
	require.NoError(t, err)
	assert.Equal(t, string(out), string(again), "a build of the same version changes nothing")
	ps, err := launchCommand(shellPowerShell, "guard")
	require.NoError(t, err)
	assert.True(t, isLauncher(ps, "guard"))
	assert.False(t, isLauncher(ps, "guar"))
}
