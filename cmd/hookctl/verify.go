package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/settings"
)

// errNotFired reports that a hook that should have fired did not; the
// report was printed already.
var errNotFired = errors.New("a hook did not fire")

// The environment of a verify restarted inside a loopback-only network
// namespace: the marker, and the claude executable found before (the
// namespace has no network to install one).
const (
	envVerifyNetNS  = "HOOKCTL_VERIFY_IN_NETNS"
	envVerifyClaude = "HOOKCTL_VERIFY_CLAUDE"
)

// cmdVerify runs `hookctl verify`: each configured hook, in the real
// client, against a fake model on 127.0.0.1.
func cmdVerify(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("verify", stderr)
	src := sourceFlags(fl)
	claude := fl.String("claude", "", "the claude `PATH` to run (default: claude on PATH)")
	codex := fl.String("codex", "", "with -agent codex, the codex `PATH` to run (default: codex on PATH)")
	version := fl.String("version", "", "install this `VERSION` of the agent (Claude Code, or Codex with -agent codex) with npm into the user cache folder, as claudetest and codextest do, and run it")
	asJSON := fl.Bool("json", false, "print the report as JSON")
	fail := fl.String("fail", "", "replace each hook by one that fails this `WAY` (crash: exits 1 with no answer; hang: never answers, timeout cut to 5s), to see whether the failure lets the call through")
	netns := fl.String("netns", "auto", "`MODE` of the loopback-only network namespace verify runs in: auto (where unshare -n works), on (required), off")
	keep := fl.String("keep", "", "keep each run's folder (scratch home and project, records, logs) under `DIR`")
	limit := fl.Duration("limit", 2*time.Minute, "the longest one claude (or codex) run may take")
	if err := src.parseAndLoadFlags(fl, "verify", args); err != nil {
		return err
	}
	switch *fail {
	case "", clientrun.FailCrash, clientrun.FailHang:
	default:
		return usageErr(stderr, "verify", "-fail %q: give crash or hang", *fail)
	}
	mode := map[string]string{"auto": "auto", "on": "1", "off": "0"}[*netns]
	if mode == "" {
		return usageErr(stderr, "verify", "-netns %q: give auto, on or off", *netns)
	}
	if *claude != "" && *version != "" || *codex != "" && *version != "" {
		return usageErr(stderr, "verify", "give -claude (or -codex) or -version, not both")
	}
	if err := checkAgent(stderr, "verify", *src.agent); err != nil {
		return err
	}
	if *src.agent == agentCodex {
		if *claude != "" {
			return usageErr(stderr, "verify", "-claude is for Claude Code: with -agent codex give -codex PATH")
		}
		if len(src.plugins) > 0 {
			return usageErr(stderr, "verify", "-plugin is for Claude Code plugins: verify -agent codex checks the hooks of the user's and the project's Codex layers")
		}
		return cmdVerifyCodex(verifyOptions{project: *src.project, bin: *codex, version: *version, asJSON: *asJSON, fail: *fail,
			netns: *netns, netMode: mode, keep: *keep, limit: *limit}, stdout, stderr)
	}
	if *codex != "" {
		return usageErr(stderr, "verify", "-codex is for -agent codex")
	}
	l, err := load(*src.project, src.plugins)
	if err != nil {
		return err
	}
	if len(l.errs) > 0 {
		return fmt.Errorf("the configuration cannot be read (run hookctl doctor): %w", errors.Join(l.errs...))
	}

	bin, err := findClaude(*claude, *version, stderr)
	if err != nil {
		return err
	}
	if os.Getenv(envVerifyNetNS) != "1" {
		os.Setenv(envVerifyClaude, bin)
		if err := clientrun.EnterLoopbackNetNS(mode, envVerifyNetNS); err != nil {
			return fmt.Errorf("-netns %s: %w", *netns, err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	work := *keep
	if work == "" {
		if work, err = os.MkdirTemp("", "hookctl-verify-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if work, err = filepath.Abs(work); err != nil {
		return err
	}
	v := &verifier{l: l, claude: bin, exe: exe, fail: *fail, work: work, limit: *limit, files: userFiles{},
		trusted: projectTrusted(userClaudeJSON(l.locs), l.locs.Project)}
	v.managed = newManagedMount(l, exe, work, stderr)
	netNote := "on the host network: Claude Code is pointed only at 127.0.0.1 and its proxy refuses other hosts"
	if os.Getenv(envVerifyNetNS) == "1" {
		netNote = "in a network namespace that has only loopback"
	}
	fmt.Fprintf(stderr, "hookctl verify: %d hooks, claude %s, %s\n", len(l.hooks), bin, netNote)

	var reps []hookReport
	var outside []string
	for i, f := range l.hooks {
		p := planFor(f.hook, "PROJECT")
		if f.src.Scope == settings.ScopeManaged && p.Skip == "" {
			p.Skip = v.managed.skip()
		}
		o := &observed{Plan: p, Fail: *fail}
		if p.Skip == "" {
			fmt.Fprintf(stderr, "hookctl verify: [%d/%d] %s %s from %s:%d: %s\n", i+1, len(l.hooks), f.hook.Event, orDash(f.hook.Matcher), f.file, f.hook.Line, f.hook.Handler.String())
			// The plan's paths are the run's project's.
			proj := filepath.Join(work, fmt.Sprintf("hook-%d", i+1), "proj")
			if err := os.MkdirAll(proj, 0o755); err != nil {
				return err
			}
			if proj, err = filepath.EvalSymlinks(proj); err != nil {
				return err
			}
			p = planFor(f.hook, proj)
			if o, err = v.runOne(i, p); err != nil {
				return fmt.Errorf("hook %d (%s:%d): %w", i+1, f.file, f.hook.Line, err)
			}
			outside = append(outside, o.OutsideTries...)
			if b := marshalValue(o); len(b) > 0 {
				os.WriteFile(filepath.Join(work, fmt.Sprintf("hook-%d", i+1), "observed.json"), b, 0o644)
			}
		}
		rep := applyPolicy(l, f, buildReport(i+1, f, o))
		if p.Skip == "" {
			fmt.Fprintf(stderr, "hookctl verify: [%d/%d] %s\n", i+1, len(l.hooks), rep.summary())
		}
		reps = append(reps, rep)
	}
	return finishVerify(v.files, reps, outside, *asJSON, stdout, stderr)
}

// finishVerify ends a verify run the same way for every agent: it fails
// when the user's files changed while it ran, prints the reports (as JSON
// with asJSON), names the refused requests for other hosts, and returns
// errNotFired when a report shows a problem.
func finishVerify(files userFiles, reps []hookReport, outside []string, asJSON bool, stdout, stderr io.Writer) error {
	if ch := files.changed(); len(ch) > 0 {
		return fmt.Errorf("files of the user changed while verify ran (verify writes none of them; something else did): %s", strings.Join(ch, ", "))
	}
	if asJSON {
		if err := writeReportJSON(stdout, reps); err != nil {
			return err
		}
	} else {
		printReport(stdout, reps)
	}
	if len(outside) > 0 {
		fmt.Fprintf(stderr, "hookctl verify: refused requests for other hosts: %s\n", strings.Join(outside, ", "))
	}
	for _, r := range reps {
		if r.problem() {
			return errNotFired
		}
	}
	return nil
}

// parseAndLoadFlags parses args for a command that takes flags only.
func (s *sources) parseAndLoadFlags(fl *flag.FlagSet, name string, args []string) error {
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return usageErr(fl.Output(), name, "unexpected argument %q", fl.Arg(0))
	}
	return nil
}

// applyPolicy explains a hook that did not fire by the settings that turn
// hooks off, when they do.
func applyPolicy(l *loaded, f found, r hookReport) hookReport {
	if r.Status != statusNotFired {
		return r
	}
	for _, src := range l.sources {
		if src.Scope == settings.ScopePlugin {
			continue
		}
		b, err := settings.ReadRegular(src.Path)
		if err != nil {
			continue
		}
		ms, err := objectMembers(b)
		if err != nil {
			continue
		}
		for _, m := range ms {
			switch {
			case m.Name == "disableAllHooks" && string(m.Value) == "true":
				r.Why = "disabled: disableAllHooks is true in " + displayPath(src.Path, l.locs.Project)
			case m.Name == "allowManagedHooksOnly" && string(m.Value) == "true" && src.Scope == settings.ScopeManaged && f.src.Scope != settings.ScopeManaged:
				r.Why = "disabled: allowManagedHooksOnly in the managed settings " + src.Path
			}
		}
	}
	return r
}

// findClaude returns the claude executable to run: the one -claude names,
// the one -version installs (as claudetest installs it), the one found
// before a restart in a network namespace, or claude on PATH.
func findClaude(path, version string, log io.Writer) (string, error) {
	if bin := os.Getenv(envVerifyClaude); bin != "" && os.Getenv(envVerifyNetNS) == "1" {
		return bin, nil
	}
	if version != "" {
		bin, _, err := clientrun.Claude{Version: version, BinHint: "-claude", VersionHint: "-version latest", CacheHint: "-claude"}.Find(context.Background(), log)
		return bin, err
	}
	if path == "" {
		p, err := exec.LookPath("claude")
		if err != nil {
			return "", fmt.Errorf("no claude on PATH: give -claude PATH or -version VERSION")
		}
		path = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := exec.CommandContext(ctx, path, "--version").Run(); err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	return filepath.Abs(path)
}

// cmdTap runs the hook recorder: hookctl __tap -dir DIR -label NAME
// [-fail WAY] -- COMMAND [ARGS...]. Claude Code starts it in place of the
// hook under test (see clientrun.Tap).
func cmdTap(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hookctl __tap", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("dir", "", "records folder")
	label := fl.String("label", "", "label")
	fail := fl.String("fail", "", "crash or hang")
	if err := fl.Parse(args); err != nil || *dir == "" {
		fmt.Fprintln(stderr, "hookctl __tap: usage: -dir DIR -label NAME [-fail WAY] -- COMMAND [ARGS...]")
		return 1
	}
	return clientrun.Tap{Dir: *dir, Label: *label, Argv: fl.Args(), Fail: *fail}.Run(stdin, stdout, stderr)
}
