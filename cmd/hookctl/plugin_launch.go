package main

import (
	"fmt"
	"strings"
)

// Shells a plugin's launch command can be written for: the value of a
// command handler's "shell" member ("" is Claude Code's default).
const (
	shellDefault    = ""
	shellBash       = "bash"
	shellPowerShell = "powershell"
)

// target is one GOOS/GOARCH pair a plugin ships a binary for.
type target struct{ GOOS, GOARCH string }

// pluginTargets are the systems hookctl plugin build compiles for by
// default: every system Claude Code runs on natively.
var pluginTargets = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (t target) String() string { return t.GOOS + "/" + t.GOARCH }

// binName is the file, under the plugin's bin folder, of name's binary
// for t: name-GOOS-GOARCH, with .exe on Windows.
func binName(name string, t target) string {
	n := name + "-" + t.GOOS + "-" + t.GOARCH
	if t.GOOS == "windows" {
		n += ".exe"
	}
	return n
}

// procArch is the file Linux 6.1 and later hold the machine name in.
const procArch = "/proc/sys/kernel/arch"

// launchCommand returns the command line of the hook that runs name's
// binary from the plugin's bin folder, for the shell Claude Code runs it
// in: shellDefault or shellPowerShell. Claude Code starts one shell per
// hook call anyway; the command picks the binary from what that shell
// already knows and replaces itself with it, so that a call costs that
// shell and the hook's own process and nothing more.
//
// The default shell is /bin/sh -c on Linux and macOS (dash on Debian and
// Ubuntu, bash in POSIX mode on macOS) and Git Bash on Windows; without
// Git Bash Claude Code runs the command in PowerShell (docs/e2e.md). In
// it the system comes from bash's $OSTYPE (darwin*, linux*, msys or
// cygwin) and the machine from $HOSTTYPE (x86_64, aarch64 or arm64), both
// set by bash without a process. A shell without them (dash) is on Linux
// when /proc/version exists, and reads the machine from
// /proc/sys/kernel/arch with the read builtin; only where that file is
// missing (Linux before 6.1, or an unknown system) does it start uname.
// exec replaces the shell with the binary, so the hook's exit code, stdin
// and stdout are the binary's own.
//
// Up to the exec the command writes nothing: a missing /proc file or
// uname is silent, so that no shell diagnostic ends up in the hook's
// stderr, which Claude Code shows as the block reason when the binary
// exits 2. When there is no binary for the system it writes one line
// naming the file and exits 127 (a non-blocking error, as a missing
// command is); when the binary is not executable, one line and 126.
//
// In PowerShell (no exec there) the binary is started with & and the
// shell exits with its exit code; the machine comes from
// $env:PROCESSOR_ARCHITECTURE on Windows (AMD64 or ARM64) and from .NET's
// RuntimeInformation in pwsh on macOS and Linux ($IsMacOS, $IsLinux). A
// missing binary is one line and exit code 127 there too (& alone would
// leave $LASTEXITCODE unset, and the hook would exit 0).
//
// name must hold only letters, digits, '.', '_' and '-', so that it
// needs no quoting in either shell.
func launchCommand(shell, name string) (string, error) {
	return launchScript(shell, name, procArch)
}

// launchScript is launchCommand reading the machine name from archFile
// instead of /proc/sys/kernel/arch (which the tests cannot remove).
func launchScript(shell, name, archFile string) (string, error) {
	if !validBinName(name) {
		return "", fmt.Errorf("binary name %q: use letters, digits, '.', '_' and '-' only", name)
	}
	switch shell {
	case shellDefault, shellBash:
		return strings.Join([]string{
			`case "${OSTYPE:-}" in darwin*) o=darwin;; linux*) o=linux;; msys*|cygwin*) o=windows;;`,
			` '') if [ -e /proc/version ]; then o=linux; else o=$(uname -s 2>/dev/null); fi;; *) o=$OSTYPE;; esac;`,
			` case $o in Darwin) o=darwin;; Linux) o=linux;; MINGW*|MSYS*|CYGWIN*) o=windows;; esac;`,
			` a=${HOSTTYPE:-}; if [ -z "$a" ]; then { read -r a < ` + archFile + `; } 2>/dev/null || a=$(uname -m 2>/dev/null); fi;`,
			` case $a in x86_64|amd64) a=amd64;; aarch64|arm64) a=arm64;; esac;`,
			` x=; if [ "$o" = windows ]; then x=.exe; fi;`,
			` f="${CLAUDE_PLUGIN_ROOT}/bin/` + name + `-$o-$a$x";`,
			` if [ ! -f "$f" ]; then echo "no ` + name + ` binary for this system ($o/$a): $f" >&2; exit 127; fi;`,
			` if [ ! -x "$f" ]; then echo "$f is not executable" >&2; exit 126; fi;`,
			` exec "$f"`,
		}, ""), nil
	case shellPowerShell:
		return strings.Join([]string{
			`$o = if ($IsMacOS) { 'darwin' } elseif ($IsLinux) { 'linux' } else { 'windows' };`,
			` $a = if ($o -eq 'windows') { $env:PROCESSOR_ARCHITECTURE } else { "$([System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture)" };`,
			` $a = if ($a -match 'arm64') { 'arm64' } else { 'amd64' };`,
			` $x = if ($o -eq 'windows') { '.exe' } else { '' };`,
			` $f = "$env:CLAUDE_PLUGIN_ROOT/bin/` + name + `-$o-$a$x";`,
			` if (-not (Test-Path -LiteralPath $f -PathType Leaf)) { [Console]::Error.WriteLine("no ` + name + ` binary for this system ($o/$a): $f"); exit 127 };`,
			` & $f; exit $LASTEXITCODE`,
		}, ""), nil
	}
	return "", fmt.Errorf("shell %q: want %q, %q or none (Claude Code's default)", shell, shellBash, shellPowerShell)
}

// validBinName reports whether name is a binary name launchCommand can
// write without quoting.
func validBinName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
