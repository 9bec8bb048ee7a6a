package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/gohooks/hook/internal/filekind"
	"github.com/gohooks/hook/settings"
)

// cmdPlugin runs hookctl plugin SUBCOMMAND.
func cmdPlugin(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "build" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, pluginUsage)
			return flag.ErrHelp
		}
		fmt.Fprint(stderr, pluginUsage)
		return errUsage
	}
	return cmdPluginBuild(args[1:], stdout, stderr)
}

const pluginUsage = `usage:
  hookctl plugin build -dir PLUGIN_DIR -event EVENT [-matcher M] [-name NAME]
                       [-targets GOOS/GOARCH,...] [-shell bash|powershell] [-timeout S]
                       [-on-failure continue|block] [-status-message TEXT] [-plugin-name NAME] PACKAGE
`

// cmdPluginBuild cross-compiles a hook's main package into a plugin
// folder and registers it in the plugin's hooks/hooks.json.
func cmdPluginBuild(args []string, stdout, stderr io.Writer) error {
	const name = "plugin build"
	fl := newFlags(name, stderr)
	var (
		dir        = fl.String("dir", "", "the plugin `DIR` (created if missing)")
		event      = fl.String("event", "", "the hook `EVENT`, such as PreToolUse")
		matcher    = fl.String("matcher", "", "the `MATCHER` of the entry (tool names for tool events)")
		binary     = fl.String("name", "", "the binary's `NAME` under bin/ (default: the package's last path element)")
		targets    = fl.String("targets", "", "comma-separated `GOOS/GOARCH` list (default: linux, darwin and windows on amd64 and arm64)")
		shell      = fl.String("shell", "", "write the command for `SHELL` bash or powershell (default: Claude Code's default shell)")
		timeout    = fl.Float64("timeout", 0, "the hook's timeout in `SECONDS` (0: Claude Code's default)")
		onFailure  = fl.String("on-failure", "", "`continue` or block when the hook cannot start, is killed or prints garbage")
		status     = fl.String("status-message", "", "`TEXT` shown while the hook runs")
		pluginName = fl.String("plugin-name", "", "the `NAME` written to a new .claude-plugin/plugin.json (default: the folder's name)")
	)
	fl.Usage = func() { fmt.Fprint(stderr, pluginUsage); fl.PrintDefaults() }
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return usageErr(stderr, name, "give one main PACKAGE to build, such as ./cmd/myhook")
	}
	pkg := fl.Arg(0)
	switch {
	case *dir == "":
		return usageErr(stderr, name, "-dir is required")
	case *event == "":
		return usageErr(stderr, name, "-event is required")
	case *onFailure != "" && *onFailure != "continue" && *onFailure != "block":
		return usageErr(stderr, name, "-on-failure: want continue or block, not %q", *onFailure)
	case *timeout < 0:
		return usageErr(stderr, name, "-timeout: want a positive number of seconds")
	}
	ts, err := parseTargets(*targets)
	if err != nil {
		return usageErr(stderr, name, "-targets: %v", err)
	}
	bin := *binary
	if bin == "" {
		bin = path.Base(filepath.ToSlash(strings.TrimRight(pkg, `/\`)))
		if bin == "." || bin == "/" {
			abs, err := filepath.Abs(pkg)
			if err != nil {
				return err
			}
			bin = filepath.Base(abs)
		}
	}
	command, err := launchCommand(*shell, bin)
	if err != nil {
		return usageErr(stderr, name, "%v", err)
	}
	root, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	for _, t := range ts {
		out := filepath.Join(root, "bin", binName(bin, t))
		if err := buildTarget(pkg, out, t, stderr); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "built %s\n", filepath.Join("bin", binName(bin, t)))
	}
	created, err := writeManifest(root, *pluginName)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(".claude-plugin", "plugin.json"))
	}
	h := settings.Handler{Type: settings.TypeCommand, Command: command, Shell: *shell,
		Timeout: *timeout, OnFailure: *onFailure, StatusMessage: *status}
	e := settings.Entry{Event: *event, Matcher: *matcher, Handler: h}
	changed, err := settings.Update(settings.PluginHooksFile(root), func(data []byte) ([]byte, error) {
		data, err := replaceLaunchers(data, e, bin)
		if err != nil {
			return data, err
		}
		out, _, err := settings.Add(data, e)
		return out, err
	})
	if err != nil {
		return err
	}
	hooksFile := filepath.Join("hooks", "hooks.json")
	if changed {
		fmt.Fprintf(stdout, "registered %s in %s\n", describe(e), hooksFile)
	} else {
		fmt.Fprintf(stdout, "%s already has %s\n", hooksFile, describe(e))
	}
	return nil
}

// replaceLaunchers removes from data the launch commands an earlier
// hookctl wrote for the binary bin under e's event and matcher that
// differ from e's (the command's text changes between versions), so that
// a new build replaces the old entry instead of adding a second one that
// would run the hook twice.
func replaceLaunchers(data []byte, e settings.Entry, bin string) ([]byte, error) {
	hs, err := settings.Parse(data)
	if err != nil {
		return data, err
	}
	for _, h := range hs {
		c := h.Handler.Command
		if h.Event != e.Event || h.Matcher != e.Matcher || h.Handler.Type != settings.TypeCommand ||
			h.Handler.Args != nil || c == e.Handler.Command || !isLauncher(c, bin) {
			continue
		}
		if data, _, err = settings.Remove(data, settings.Entry{Event: h.Event, Matcher: h.Matcher, Handler: h.Handler}); err != nil {
			return data, err
		}
	}
	return data, nil
}

// isLauncher reports whether command is a launch command hookctl plugin
// build wrote, in any version, for the binary bin.
func isLauncher(command, bin string) bool {
	return strings.HasPrefix(command, `case "${OSTYPE:-}" in `) && strings.Contains(command, `/bin/`+bin+`-$o-$a$x"`) ||
		strings.HasPrefix(command, `$o = if ($IsMacOS)`) && strings.Contains(command, `/bin/`+bin+`-$o-$a$x"`)
}

// parseTargets reads a comma-separated GOOS/GOARCH list; empty means
// pluginTargets.
func parseTargets(s string) ([]target, error) {
	if strings.TrimSpace(s) == "" {
		return pluginTargets, nil
	}
	var out []target
	seen := map[target]bool{}
	for _, f := range strings.Split(s, ",") {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(f), "/")
		t := target{goos, goarch}
		if !ok || !knownTarget(t) {
			return nil, fmt.Errorf("%q: want one of %s", f, targetList())
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// knownTarget reports whether launchCommand can pick t's binary.
func knownTarget(t target) bool {
	for _, k := range pluginTargets {
		if k == t {
			return true
		}
	}
	return false
}

func targetList() string {
	var s []string
	for _, t := range pluginTargets {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}

// buildFlags are the go build flags of a plugin binary: no paths of the
// build machine (-trimpath), no version-control stamp (which differs in a
// dirty tree), no symbol table and no build ID, so that the same source
// and toolchain give the same bytes on any machine.
var buildFlags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid="}

// buildTarget builds the main package pkg for t into out, static
// (CGO_ENABLED=0), in a private temporary folder beside it whose result is
// renamed into place, so that a failed build leaves the old binary and
// nothing else. An out that exists but is not a regular file (a link, a
// named pipe, a device, ...) is refused before anything is built.
func buildTarget(pkg, out string, t target, stderr io.Writer) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := checkReplaceable(out); err != nil {
		return err
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(out), ".build-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, filepath.Base(out))
	args := append([]string{"build"}, buildFlags...)
	args = append(args, "-o", tmp, pkg)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		stderr.Write(msg.Bytes())
		return fmt.Errorf("go build %s for %s: %w", pkg, t, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := checkReplaceable(out); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// checkReplaceable refuses a path that exists but is not a regular file:
// hookctl replaces only what it wrote itself.
func checkReplaceable(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: refusing to replace it", path, filekind.Name(fi.Mode()))
	}
	return nil
}

// writeManifest writes root/.claude-plugin/plugin.json with the plugin's
// name when the file does not exist, and reports whether it did. An
// existing manifest is left as it is; a path there that is not a regular
// file (or a link to one) is refused, as settings.Update refuses it. The
// name is name, else the folder's name, made kebab-case as Claude Code
// wants it.
func writeManifest(root, name string) (bool, error) {
	p := filepath.Join(root, ".claude-plugin", "plugin.json")
	if _, err := settings.ReadRegular(p); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if name == "" {
		name = filepath.Base(root)
	}
	name = kebab(name)
	if name == "" {
		return false, fmt.Errorf("no plugin name in %q: give -plugin-name", filepath.Base(root))
	}
	// kebab leaves only [a-z0-9-], which needs no JSON escaping.
	manifest := []byte("{\n  \"name\": \"" + name + "\"\n}\n")
	return settings.Update(p, func(data []byte) ([]byte, error) {
		if data != nil {
			return data, nil // written meanwhile: leave it
		}
		return manifest, nil
	})
}

// kebab lowercases s and turns each run of other characters than letters
// and digits into one '-', trimmed at both ends.
func kebab(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			continue
		}
		dash = true
	}
	return b.String()
}
