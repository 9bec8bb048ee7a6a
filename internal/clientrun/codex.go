package clientrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/npminstall"
)

// ErrCodexUnavailable marks why Codex cannot be run here at all: no
// package installed and no npm to install one, or an executable that does
// not run.
var ErrCodexUnavailable = errors.New("Codex cannot be run here")

// CodexVersionPrefix starts the line codex --version prints.
const CodexVersionPrefix = "codex-cli "

// Codex says which Codex CLI to run: Bin, or the release Version
// installed with npm into Dir.
type Codex struct {
	// Bin is the codex executable to run as it is; empty installs one.
	Bin string
	// Version is the release to install (npm @openai/codex): exact
	// (0.171.0), or a tag or range npm resolves today ("latest"); empty
	// is agent.CodexVersion.
	Version string
	// Dir is the folder the release is installed in; empty is
	// gohooks-e2e/codex/VERSION under the user cache folder.
	Dir string
	// BinHint and DirHint name, in messages, how the caller's user sets
	// Bin and Dir ($HOOK_E2E_CODEX_BIN, -codex, …).
	BinHint, DirHint string
}

// version returns the release to install.
func (c Codex) version() string {
	if c.Version != "" {
		return c.Version
	}
	return agent.CodexVersion
}

// installDir returns the folder the release is installed in.
func (c Codex) installDir() (string, error) {
	if c.Dir != "" {
		return filepath.Abs(c.Dir)
	}
	uc, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no user cache folder (set %s or %s): %v", ErrCodexUnavailable, c.DirHint, c.BinHint, err)
	}
	return filepath.Join(uc, "gohooks-e2e", "codex", c.version()), nil
}

// findCodex returns a codex of version installed in dir: the platform
// package's native binary, which runs without node, else npm's launcher.
func findCodex(ctx context.Context, dir, version string) (string, bool) {
	exe := "codex"
	if runtime.GOOS == "windows" {
		exe = "codex.exe"
	}
	cands, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@openai", "codex-*", "vendor", "*", "bin", exe))
	launcher := filepath.Join(dir, "node_modules", ".bin", "codex")
	if runtime.GOOS == "windows" {
		launcher += ".cmd"
	}
	for _, c := range append(cands, launcher) {
		if v, err := CodexVersionOf(ctx, c); err == nil && v == CodexVersionPrefix+version {
			return c, true
		}
	}
	return "", false
}

// Find returns the codex executable to run and its version line
// ("codex-cli 0.171.0"): Bin, or the release installed in Dir, which it
// installs there with npm first when missing (npm's output goes to log).
// npminstall.Install puts it in a fresh folder renamed into place, so
// that two processes installing at once cannot leave a half-installed
// folder. An error wrapping ErrCodexUnavailable means Codex cannot be run
// here at all.
func (c Codex) Find(ctx context.Context, log io.Writer) (string, string, error) {
	if c.Bin != "" {
		v, err := CodexVersionOf(ctx, c.Bin)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s=%s: %v", ErrCodexUnavailable, c.BinHint, c.Bin, err)
		}
		return c.Bin, v, nil
	}
	ictx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	v, err := resolveVersion(ictx, "@openai/codex", c.version())
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrCodexUnavailable, err)
	}
	c.Version = v
	dir, err := c.installDir()
	if err != nil {
		return "", "", err
	}
	bin, err := npminstall.Install(ictx, dir, "@openai/codex@"+v, log,
		func(dir string) (string, bool) { return findCodex(ctx, dir, v) })
	switch {
	case errors.Is(err, npminstall.ErrNoNpm):
		return "", "", fmt.Errorf("%w: Codex %s is not installed in %s and npm is not there to install it (install node and npm, or set %s to a codex executable)", ErrCodexUnavailable, v, dir, c.BinHint)
	case errors.Is(err, npminstall.ErrNpm):
		return "", "", fmt.Errorf("%w: %v", ErrCodexUnavailable, err)
	case err != nil:
		return "", "", fmt.Errorf("installing Codex: %w", err)
	}
	ver, err := CodexVersionOf(ctx, bin)
	return bin, ver, err
}

// CodexVersionOf runs bin --version and returns its line.
func CodexVersionOf(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(out.String()), nil
}

// CodexQuietSettings turn on hooks and turn off what Codex would fetch
// from other hosts on its own: plugins and their marketplace (github.com,
// chatgpt.com), apps, model discovery, update checks and analytics
// (ab.chatgpt.com). They go on the command line (-c), where no
// config.toml can override them.
var CodexQuietSettings = []string{
	"features.hooks=true", "features.plugins=false", "features.remote_plugin=false",
	"features.plugin_sharing=false", "features.apps=false", "features.api_key_model_discovery=false",
	"analytics.enabled=false", "check_for_update_on_startup=false",
}

// CodexEnv returns the whole environment of a headless run: nothing of
// the caller's but PATH, so no key or setting of the user's reaches
// Codex; HOME and CODEX_HOME are home; the proxy variables point at the
// fake API, which logs and refuses any request for another host.
func CodexEnv(home, apiURL, path string) []string {
	return []string{
		"PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "HOME=" + home, "CODEX_HOME=" + home,
		"HTTPS_PROXY=" + apiURL, "HTTP_PROXY=" + apiURL, "ALL_PROXY=" + apiURL,
		"https_proxy=" + apiURL, "http_proxy=" + apiURL, "all_proxy=" + apiURL,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
}

// CodexArgs returns the arguments of a headless run: codex exec without
// a git repository, hook trust bypassed unless checkTrust, no approvals
// or sandbox, on the model and provider given (TOML strings, as -c reads
// them), with CodexQuietSettings, the last message written to
// lastMessage, then the prompt (never read as an option).
func CodexArgs(prompt, lastMessage, model, provider string, checkTrust bool) []string {
	args := []string{"exec", "--skip-git-repo-check"}
	if !checkTrust {
		args = append(args, "--dangerously-bypass-hook-trust")
	}
	args = append(args, "--dangerously-bypass-approvals-and-sandbox", "--color", "never",
		"-c", "model="+model, "-c", "model_provider="+provider)
	for _, kv := range CodexQuietSettings {
		args = append(args, "-c", kv)
	}
	return append(args, "-o", lastMessage, "--", prompt)
}
