package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
)

// envVerifyCodex holds the codex executable found before verify restarted
// itself in a loopback-only network namespace (which has no network to
// install one).
const envVerifyCodex = "HOOKCTL_VERIFY_CODEX"

// verifyOptions are the flags of verify that -agent codex reads.
type verifyOptions struct {
	project, bin, version, fail, netns, netMode, keep string
	asJSON                                            bool
	limit                                             time.Duration
}

// cmdVerifyCodex runs `hookctl verify -agent codex`: each hook Codex
// would load for the project, in the real codex exec, against a fake
// OpenAI Responses API on 127.0.0.1, with its trust checked as Codex
// checks it for the user.
func cmdVerifyCodex(o verifyOptions, stdout, stderr io.Writer) error {
	l, err := loadCodex(o.project)
	if err != nil {
		return err
	}
	if len(l.errs) > 0 {
		return fmt.Errorf("the configuration cannot be read (run hookctl doctor -agent codex): %w", errors.Join(l.errs...))
	}
	bin, err := findCodexBin(o.bin, o.version, stderr)
	if err != nil {
		return err
	}
	if os.Getenv(envVerifyNetNS) != "1" {
		os.Setenv(envVerifyCodex, bin)
		if err := clientrun.EnterLoopbackNetNS(o.netMode, envVerifyNetNS); err != nil {
			return fmt.Errorf("-netns %s: %w", o.netns, err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	work := o.keep
	if work == "" {
		if work, err = os.MkdirTemp("", "hookctl-verify-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if work, err = filepath.Abs(work); err != nil {
		return err
	}
	v, err := newCodexVerifier(l, bin, exe, o.fail, work, o.limit)
	if err != nil {
		return err
	}
	netNote := "on the host network: Codex is pointed only at 127.0.0.1 and its proxy refuses other hosts"
	if os.Getenv(envVerifyNetNS) == "1" {
		netNote = "in a network namespace that has only loopback"
	}
	fmt.Fprintf(stderr, "hookctl verify: %d hooks, codex %s, %s\n", len(l.hooks), bin, netNote)

	var reps []hookReport
	var outside []string
	for i, f := range l.hooks {
		t := v.trustFor(f)
		p := codexPlanFor(f.hook, "PROJECT")
		if t.skip != "" && p.Skip == "" {
			p.Skip = t.skip
		}
		ob := &observed{Plan: p, Fail: o.fail}
		if p.Skip == "" && !t.noRun {
			fmt.Fprintf(stderr, "hookctl verify: [%d/%d] %s %s from %s:%d: %s\n", i+1, len(l.hooks), f.hook.Event, orDash(f.hook.Matcher), f.file, f.hook.Line, f.hook.Handler.String())
			if ob, err = v.runOne(i, t); err != nil {
				return fmt.Errorf("hook %d (%s:%d): %w", i+1, f.file, f.hook.Line, err)
			}
			outside = append(outside, ob.OutsideTries...)
			if b := marshalValue(ob); len(b) > 0 {
				os.WriteFile(filepath.Join(work, fmt.Sprintf("hook-%d", i+1), "observed.json"), b, 0o644)
			}
		}
		rep := buildCodexReport(i+1, f, t, ob)
		if p.Skip == "" {
			fmt.Fprintf(stderr, "hookctl verify: [%d/%d] %s\n", i+1, len(l.hooks), rep.summary())
		}
		reps = append(reps, rep)
	}
	return finishVerify(v.files, reps, outside, o.asJSON, stdout, stderr)
}

// findCodexBin returns the codex executable to run: the one -codex
// names, the one -version installs (as codextest installs it), the one
// found before a restart in a network namespace, or codex on PATH.
func findCodexBin(path, version string, log io.Writer) (string, error) {
	if bin := os.Getenv(envVerifyCodex); bin != "" && os.Getenv(envVerifyNetNS) == "1" {
		return bin, nil
	}
	if version != "" {
		bin, _, err := clientrun.Codex{Version: version, BinHint: "-codex", DirHint: "-codex"}.Find(context.Background(), log)
		return bin, err
	}
	if path == "" {
		p, err := exec.LookPath("codex")
		if err != nil {
			return "", fmt.Errorf("no codex on PATH: give -codex PATH or -version VERSION")
		}
		path = p
	}
	v, err := clientrun.CodexVersionOf(context.Background(), path)
	if err != nil {
		return "", err
	}
	if v != clientrun.CodexVersionPrefix+agent.CodexVersion {
		fmt.Fprintf(log, "hookctl verify: warning: %s is %q; hookctl is verified against Codex %s\n", path, v, agent.CodexVersion)
	}
	return filepath.Abs(path)
}
