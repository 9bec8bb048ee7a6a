package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/settings"
)

// scratch is one run's copy of the user's configuration: a HOME whose
// .claude holds the user's settings, a project whose .claude holds the
// project's, and a copy of each plugin Claude Code loads, all with only
// the hook under test, wrapped in the recorder.
type scratch struct {
	dir, home, proj, capDir string
	// plugins are the plugin copies, loaded with --plugin-dir.
	plugins []string
}

// hangTimeout is the timeout, in seconds, of a hook replaced by one that
// hangs (-fail hang), so that the run ends in seconds.
const hangTimeout = 5

// observerLabel labels verify's own recorders, which see what the tool
// received (PostToolUse, PostToolUseFailure).
const (
	hookLabel     = "hook"
	observerLabel = "observe"
)

// secretName reports whether a file or folder name looks like it holds a
// credential: verify never copies one into the scratch home.
func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"credential", "token", "secret", "oauth", "apikey", "api_key", "api-key", "keychain", ".netrc", "password", "id_rsa", "id_ed25519", "id_ecdsa"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return strings.HasSuffix(n, ".pem") || strings.HasSuffix(n, ".key") || strings.HasSuffix(n, ".p12")
}

// skippedConfig are the entries of the user's Claude Code folder that are
// not configuration (transcripts, caches, history, state) or are written
// separately: verify does not copy them.
var skippedConfig = []string{
	".claude.json", "settings.json", "settings.local.json", "plugins", "projects", "todos", "shell-snapshots",
	"statsig", "ide", "debug", "file-history", "session-env", "logs", "cache", "telemetry", "worktrees",
	"tasks", "backups", "history.jsonl", "sessions",
}

// maxCopied is the largest file verify copies into the scratch.
const maxCopied = 64 << 20

// copyTree copies the folder src into dst, skipping the top-level names
// in skip, with secrets anything whose name looks like a credential, and
// files larger than maxCopied. Symbolic links are copied as links. It
// returns the files copied, for the check that they are left unchanged.
func copyTree(src, dst string, skip []string, secrets bool) ([]string, error) {
	var copied []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == src && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." {
			return os.MkdirAll(dst, 0o755)
		}
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		if slices.Contains(skip, top) || secrets && secretName(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxCopied {
			return err
		}
		if err := copyRegular(p, target, info.Mode().Perm()); err != nil {
			return err
		}
		copied = append(copied, p)
		return nil
	})
	return copied, err
}

// copyRegular copies one file with its permissions.
func copyRegular(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// jsonMember is one member of a JSON object, its value as written.
type jsonMember struct {
	Name  string
	Value jsontext.Value
}

// objectMembers returns the members of the JSON object data in order; an
// empty or missing file is an empty object.
func objectMembers(data []byte) ([]jsonMember, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	d := jsontext.NewDecoder(bytes.NewReader(data), jsonopts.Read())
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []jsonMember
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String()
		v, err := d.ReadValue()
		if err != nil {
			return nil, err
		}
		out = append(out, jsonMember{name, v.Clone()})
	}
	return out, nil
}

// encodeMembers writes members as an indented JSON object.
func encodeMembers(ms []jsonMember) ([]byte, error) {
	var b bytes.Buffer
	enc := jsontext.NewEncoder(&b, jsonopts.Read(), jsontext.Multiline(true), jsontext.WithIndent("  "))
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, err
	}
	for _, m := range ms {
		if err := enc.WriteToken(jsontext.String(m.Name)); err != nil {
			return nil, err
		}
		if err := enc.WriteValue(m.Value); err != nil {
			return nil, err
		}
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// marshalValue encodes v for a member.
func marshalValue(v any) jsontext.Value {
	b, err := json.Marshal(v, jsonopts.Deterministic())
	if err != nil {
		panic(err) // our own values
	}
	return b
}

// scratchSettings returns the user's settings file data for the scratch:
// its hooks replaced by hooks (nil: none), without what would load the
// user's installed plugins (they are loaded as copies), reach another
// host or hand out credentials (apiKeyHelper, env ANTHROPIC_*, proxies,
// …), and without permissions when notAllowed. It returns the names it
// dropped.
func scratchSettings(data []byte, hooks map[string][]any, notAllowed bool) ([]byte, []string, error) {
	ms, err := objectMembers(data)
	if err != nil {
		return nil, nil, err
	}
	var out []jsonMember
	var dropped []string
	for _, m := range ms {
		switch {
		case m.Name == "hooks", m.Name == "enabledPlugins", m.Name == "extraKnownMarketplaces", m.Name == "statusLine":
			continue
		case slices.Contains(clientrun.OutsideSettings, m.Name), notAllowed && m.Name == "permissions":
			dropped = append(dropped, m.Name)
			continue
		case m.Name == "env":
			env, err := objectMembers(m.Value)
			if err != nil {
				dropped = append(dropped, "env")
				continue
			}
			kept := env[:0]
			for _, e := range env {
				if clientrun.ReachesOut(e.Name) {
					dropped = append(dropped, "env."+e.Name)
				} else {
					kept = append(kept, e)
				}
			}
			v, err := encodeMembers(kept)
			if err != nil {
				return nil, nil, err
			}
			m.Value = v
		}
		out = append(out, m)
	}
	if hooks == nil {
		hooks = map[string][]any{}
	}
	out = append(out, jsonMember{"hooks", marshalValue(hooks)})
	b, err := encodeMembers(out)
	return append(b, '\n'), dropped, err
}

// tapArgv returns the arguments of the recorder in front of a command
// handler h (or in place of it, with fail), labelled label.
func tapArgv(capDir, label, fail string, h settings.Handler) []string {
	args := []string{"__tap", "-dir", capDir, "-label", label}
	if fail != "" {
		args = append(args, "-fail", fail)
	}
	args = append(args, "--")
	if h.Args != nil {
		return append(append(args, h.Command), h.Args...)
	}
	return append(args, shellArgv(h.Shell, h.Command)...)
}

// shellArgv returns the argv that runs a shell-form command line as
// Claude Code does: PowerShell for "powershell", else bash (sh where
// there is no bash).
func shellArgv(shell, line string) []string {
	if shell == "powershell" {
		for _, ps := range []string{"pwsh", "powershell"} {
			if p, err := exec.LookPath(ps); err == nil {
				return []string{p, "-NoProfile", "-Command", line}
			}
		}
		return []string{"pwsh", "-NoProfile", "-Command", line}
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return []string{p, "-c", line}
	}
	if runtime.GOOS == "windows" {
		return []string{"cmd", "/c", line}
	}
	return []string{"/bin/sh", "-c", line}
}

// wrapHandler returns the handler object raw (a command handler as
// written) with its command replaced by the recorder exe in exec form,
// every other option (timeout, onFailure, async, …) kept; with fail hang,
// a timeout of hangTimeout seconds at most.
func wrapHandler(raw jsontext.Value, h settings.Handler, exe, capDir, fail string) (jsontext.Value, error) {
	ms, err := objectMembers(raw)
	if err != nil {
		return nil, err
	}
	var out []jsonMember
	hasTimeout := false
	for _, m := range ms {
		switch m.Name {
		case "type", "command", "args", "shell":
			continue
		case "timeout":
			hasTimeout = true
			if fail == clientrun.FailHang && (h.Timeout <= 0 || h.Timeout > hangTimeout) {
				m.Value = marshalValue(hangTimeout)
			}
		}
		out = append(out, m)
	}
	if fail == clientrun.FailHang && !hasTimeout {
		out = append(out, jsonMember{"timeout", marshalValue(hangTimeout)})
	}
	out = append([]jsonMember{
		{"type", marshalValue("command")},
		{"command", marshalValue(exe)},
		{"args", marshalValue(tapArgv(capDir, hookLabel, fail, h))},
	}, out...)
	return encodeMembers(out)
}

// addHook adds the handler object v to hooks under event and matcher.
func addHook(hooks map[string][]any, event, matcher string, v jsontext.Value) {
	g := map[string]any{"hooks": []jsontext.Value{v}}
	if matcher != "" {
		g["matcher"] = matcher
	}
	hooks[event] = append(hooks[event], g)
}

// userFiles are the user's files verify reads, with their digests, to
// check that it left them byte for byte as they were.
type userFiles map[string][sha256.Size]byte

// digest adds the digests of paths (missing files count as missing).
func (u userFiles) digest(paths ...string) {
	for _, p := range paths {
		b, err := settings.ReadRegular(p)
		if err != nil {
			continue
		}
		u[p] = sha256.Sum256(b)
	}
}

// changed returns the files that are no longer as digested.
func (u userFiles) changed() []string {
	var out []string
	for p, sum := range u {
		b, err := settings.ReadRegular(p)
		if err != nil || sha256.Sum256(b) != sum {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// credentialsIn returns the files under dir that look like credentials,
// and the members of its .claude.json files that hold one.
func credentialsIn(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if secretName(d.Name()) {
			out = append(out, p)
		}
		if d.Name() == ".claude.json" {
			b, _ := os.ReadFile(p)
			ms, _ := objectMembers(b)
			for _, m := range ms {
				if m.Name == "primaryApiKey" || m.Name == "oauthAccount" || secretName(m.Name) {
					out = append(out, p+": "+m.Name)
				}
			}
		}
		return nil
	})
	return out
}

// userClaudeJSON returns the user's .claude.json: in $CLAUDE_CONFIG_DIR
// when set, else in HOME.
func userClaudeJSON(locs settings.Locations) string {
	if os.Getenv("CLAUDE_CONFIG_DIR") != "" {
		return filepath.Join(locs.ConfigDir, ".claude.json")
	}
	return filepath.Join(filepath.Dir(locs.ConfigDir), ".claude.json")
}

// projectTrusted reads from the user's .claude.json whether the project
// was trusted (its hasTrustDialogAccepted), and nothing else of it.
func projectTrusted(claudeJSON, project string) bool {
	b, err := settings.ReadRegular(claudeJSON)
	if err != nil {
		return false
	}
	var v struct {
		Projects map[string]struct {
			Trusted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if json.Unmarshal(b, &v, jsonopts.Lenient()) != nil {
		return false
	}
	for p, e := range v.Projects {
		if samePathName(p, project) {
			return e.Trusted
		}
	}
	return false
}

// samePathName reports whether a and b name the same folder.
func samePathName(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// writeFileMkdir writes a file, making its folder.
func writeFileMkdir(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// shortName returns a name safe for a folder.
func shortName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return fmt.Sprintf("%.40s", b.String())
}
