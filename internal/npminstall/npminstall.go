// Package npminstall installs an npm package into a folder of its own, for
// the tests that run a real agent CLI (claudetest's Claude Code, the e2e
// tests' Codex): once per version, into the user cache folder, so that a
// test run that finds it there needs no network.
package npminstall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// ErrNoNpm is the error of Install when the program is not in the folder
// and npm is not on PATH to install it.
var ErrNoNpm = errors.New("npm is not there to install it")

// ErrNpm is the error of Install when npm install fails.
var ErrNpm = errors.New("npm install failed")

// Install returns the program find finds in dir, installing spec (such as
// "@openai/codex@0.171.0") with npm into dir first when find finds none
// there; npm's output goes to log, and args are added to npm install's
// command line. The install goes to a fresh folder beside dir that is
// renamed into place, so that two processes installing at once never
// leave a half-installed dir. An error is ErrNoNpm, ErrNpm (each wrapped,
// with what was tried) or the failure to make or move the folder.
func Install(ctx context.Context, dir, spec string, log io.Writer, find func(dir string) (string, bool), args ...string) (string, error) {
	if bin, ok := find(dir); ok {
		return bin, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("%s is not installed in %s and %w", spec, dir, ErrNoNpm)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".installing-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(log, "installing %s with npm into %s\n", spec, dir)
	cmd := exec.CommandContext(ctx, "npm", append(append([]string{"install", "--prefix", tmp, "--no-audit", "--no-fund"}, args...), spec)...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%w: npm install %s: %v", ErrNpm, spec, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have installed it meanwhile.
		if _, ok := find(dir); !ok {
			return "", fmt.Errorf("moving the install of %s into %s: %w", spec, dir, err)
		}
	}
	if bin, ok := find(dir); ok {
		return bin, nil
	}
	return "", fmt.Errorf("no working program under %s after npm install %s", dir, spec)
}
