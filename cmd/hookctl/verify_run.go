package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/settings"
)

// verifySessionID is the --session-id of every verify run.
const verifySessionID = "00000000-0000-4000-8000-00000000ce71"

// verifier runs the hooks of one loaded configuration.
type verifier struct {
	l       *loaded
	claude  string // the claude executable
	exe     string // hookctl itself: the recorder and the probe
	fail    string // "", clientrun.FailCrash or clientrun.FailHang
	work    string // where the runs' folders go
	trusted bool   // the user trusted the project
	limit   time.Duration
	files   userFiles
	managed *managedMount // shows the runs scratch managed settings
}

// prepareScratch makes the scratch of the run of hook i with plan p.
func (v *verifier) prepareScratch(i int, p verifyPlan) (*scratch, error) {
	dir := filepath.Join(v.work, fmt.Sprintf("hook-%d", i+1))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &scratch{dir: dir, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj"), capDir: filepath.Join(dir, "cap")}
	for _, d := range []string{filepath.Join(s.home, ".claude"), filepath.Join(s.proj, ".claude"), s.capDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	real, err := filepath.EvalSymlinks(s.proj)
	if err != nil {
		return nil, err
	}
	s.proj = real
	locs := v.l.locs
	copied, err := copyTree(locs.ConfigDir, filepath.Join(s.home, ".claude"), skippedConfig, true)
	if err != nil {
		return nil, fmt.Errorf("copying %s: %w", locs.ConfigDir, err)
	}
	v.files.digest(copied...)
	copied, err = copyTree(filepath.Join(locs.Project, ".claude"), filepath.Join(s.proj, ".claude"), []string{"settings.json", "settings.local.json", "worktrees"}, true)
	if err != nil {
		return nil, fmt.Errorf("copying the project's .claude: %w", err)
	}
	v.files.digest(copied...)

	copied, err = v.managed.prepare(s.dir)
	if err != nil {
		return nil, err
	}
	v.files.digest(copied...)

	f := v.l.hooks[i]
	wrapped, err := wrapHandler(f.hook.Raw, f.hook.Handler, v.exe, s.capDir, v.fail)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", f.file, f.hook.Line, err)
	}
	plugin := 0
	for _, src := range v.l.sources {
		hooks := map[string][]any{}
		if src == f.src {
			addHook(hooks, f.hook.Event, f.hook.Matcher, wrapped)
		}
		data, err := settings.ReadRegular(src.Path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		v.files.digest(src.Path)
		var dst string
		switch src.Scope {
		case settings.ScopeManaged:
			if !v.managed.on() {
				continue // read by the client from the system folder itself
			}
			if dst, err = v.managed.scratchPath(s.dir, src.Path); err != nil {
				return nil, err
			}
		case settings.ScopeUser:
			dst = filepath.Join(s.home, ".claude", "settings.json")
		case settings.ScopeProject:
			dst = filepath.Join(s.proj, ".claude", "settings.json")
			observer := marshalValue(map[string]any{"type": "command", "command": v.exe, "args": []string{"__tap", "-dir", s.capDir, "-label", observerLabel}, "timeout": 30})
			for _, ev := range []string{"PostToolUse", "PostToolUseFailure"} {
				addHook(hooks, ev, "", observer)
			}
		case settings.ScopeLocal:
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			dst = filepath.Join(s.proj, ".claude", "settings.local.json")
		case settings.ScopePlugin:
			plugin++
			pdir := filepath.Join(s.dir, "plugins", fmt.Sprintf("%d-%s", plugin, shortName(filepath.Base(src.PluginRoot))))
			copied, err := copyTree(src.PluginRoot, pdir, nil, false)
			if err != nil {
				return nil, fmt.Errorf("copying plugin %s: %w", src.Plugin, err)
			}
			v.files.digest(copied...)
			s.plugins = append(s.plugins, pdir)
			b := append(marshalValue(map[string]any{"hooks": hooks}), '\n')
			if err := writeFileMkdir(settings.PluginHooksFile(pdir), b); err != nil {
				return nil, err
			}
			continue
		}
		out, _, err := scratchSettings(data, hooks, p.NotAllowed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", displayPath(src.Path, locs.Project), err)
		}
		if err := writeFileMkdir(dst, out); err != nil {
			return nil, err
		}
	}
	claudeJSON := userClaudeJSON(locs)
	v.files.digest(claudeJSON, filepath.Join(locs.ConfigDir, ".credentials.json"))
	trust := marshalValue(map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{s.proj: map[string]bool{"hasTrustDialogAccepted": v.trusted}},
	})
	if err := writeFileMkdir(filepath.Join(s.home, ".claude.json"), trust); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(s.proj, markerFile), []byte("before\n"), 0o644); err != nil {
		return nil, err
	}
	// The plugins are code, copied whole: only the home, the project's
	// .claude and the scratch managed settings could hold the user's
	// credentials.
	c := append(credentialsIn(s.home), credentialsIn(filepath.Join(s.proj, ".claude"))...)
	if c = append(c, credentialsIn(v.managed.scratchDir(s.dir))...); len(c) > 0 {
		return nil, fmt.Errorf("the scratch holds what looks like a credential, so verify stops: %s", strings.Join(c, ", "))
	}
	return s, nil
}

// runOne runs Claude Code once for hook i and returns what it observed.
func (v *verifier) runOne(i int, p verifyPlan) (*observed, error) {
	s, err := v.prepareScratch(i, p)
	if err != nil {
		return nil, err
	}
	var turns [][]clientrun.Call
	if p.Pre != nil {
		turns = append(turns, []clientrun.Call{*p.Pre})
	}
	if p.Call != nil {
		turns = append(turns, []clientrun.Call{*p.Call})
		if err := createRuleFile(*p.Call, s.proj, p.Fail); err != nil {
			return nil, err
		}
	}
	logf, err := os.Create(filepath.Join(s.dir, "api.log"))
	if err != nil {
		return nil, err
	}
	api, err := clientrun.StartFakeAPI(clientrun.Script{Turns: turns, Final: "done"}, logf)
	if err != nil {
		logf.Close()
		return nil, err
	}
	api.CloseLog = logf
	defer api.Close()

	servers := map[string]any{}
	if p.Server != "" {
		cfg, err := writeProbeConfig(s.dir, p.Server, p.Tool)
		if err != nil {
			return nil, err
		}
		servers[p.Server] = map[string]any{"type": "stdio", "command": v.exe, "args": []string{"__probe", cfg}}
	}
	mcp := filepath.Join(s.dir, "mcp.json")
	if err := writeFileMkdir(mcp, marshalValue(map[string]any{"mcpServers": servers})); err != nil {
		return nil, err
	}
	args, err := clientrun.ClaudeArgs("hookctl verify", false, verifySessionID, mcp, filepath.Join(s.dir, "debug.log"), s.plugins)
	if err != nil {
		return nil, err
	}
	if p.Call != nil && !p.NotAllowed {
		allow := p.Call.Tool
		if p.Pre != nil {
			allow += "," + p.Pre.Tool
		}
		args = append(args, "--allowedTools", allow)
	}
	ctx, cancel := context.WithTimeout(context.Background(), v.limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, v.claude, args...)
	cmd.Dir = s.proj
	cmd.Env = withCallLog(clientrun.ClaudeEnv(s.home, api.URL, os.Getenv("PATH")), s.dir)
	clientrun.OwnProcessGroup(cmd)
	if err := v.managed.wrap(cmd, s.dir); err != nil {
		return nil, err
	}
	run, err := runClient(ctx, cmd, s.dir, "claude", v.limit)
	api.Close()
	if err != nil {
		return nil, err
	}
	o := &observed{Plan: p, ClaudeExit: cmd.ProcessState.ExitCode(), ClaudeStderr: firstLine(run.stderr.String()), Seconds: run.elapsed.Seconds(), Fail: v.fail}
	if run.stopped != "" {
		o.ClaudeStderr = run.stopped
	}
	if err := v.managed.failed(o.ClaudeExit, o.ClaudeStderr); err != nil {
		return nil, err
	}
	o.OutsideTries = api.OutsideTries()
	o.CallLog = readCallLog(s.dir)
	if err := collectRuns(o, s.capDir, o.callID()); err != nil {
		return nil, err
	}
	if p.Call != nil {
		if res := clientrun.FindToolResult(api.MainRequests(), o.callID()); res != nil {
			o.Told = &toldResult{Text: res.Text, IsError: res.IsError}
		}
		if p.Server != "" {
			o.ProbeArgs = probeArgs(s.dir)
		}
	}
	return o, nil
}

// createRuleFile creates the file a Read or Edit call reads (with
// "before"), when it is not the marker file made for every run, unless
// the call is meant to fail.
func createRuleFile(c clientrun.Call, proj string, fail bool) error {
	if fail || (c.Tool != "Read" && c.Tool != "Edit") {
		return nil
	}
	v, ok := clientrun.ValueAt([]byte(c.Input), "file_path")
	if !ok {
		return nil
	}
	var p string
	if clientrun.Unmarshal(v, &p) != nil || !strings.HasPrefix(p, proj+string(filepath.Separator)) {
		return nil
	}
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	return writeFileMkdir(p, []byte("before\n"))
}

// firstLine returns the first non-empty line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
