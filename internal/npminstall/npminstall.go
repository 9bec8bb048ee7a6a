// Package npminstall installs an npm package into a folder of its own, for
// the tests that run a real agent CLI (claudetest's Claude Code, the e2e
// tests' Codex): once per version and machine, into the user cache
// folder, so that a test run that finds it there needs no network, and so
// that test processes started at once (go test runs packages in
// parallel) share one download.
package npminstall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ErrNoNpm is the error of Install when the program is not in the folder
// and npm is not on PATH to install it.
var ErrNoNpm = errors.New("npm is not there to install it")

// ErrNpm is the error of Install when npm install fails.
var ErrNpm = errors.New("npm install failed")

// ErrNotOurs is the error of Install when the folder to install into
// holds files that npm did not put there: Install never deletes them.
var ErrNotOurs = errors.New("the folder holds files that are not an npm install")

// Install returns the program find finds in dir, installing spec (such as
// "@openai/codex@0.171.0") with npm into dir first when find finds none
// there; npm's output goes to log, and args are added to npm install's
// command line.
//
// One process installs at a time: Install holds a lock on the file
// dir+".lock" (released by the system if the process dies), and a
// process that waited for it looks again before installing, so that
// concurrent callers download once. The install goes to a fresh folder
// beside dir that is renamed into place, so that no one ever sees a
// half-installed dir. A dir that exists without the program (empty, or
// a broken or other-version npm install: only package.json,
// package-lock.json and node_modules) is replaced; a dir holding anything
// else is left alone and is ErrNotOurs. An error is ErrNoNpm, ErrNpm,
// ErrNotOurs (each wrapped, with what was tried), the context's error,
// or the failure to make or move the folder.
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
	unlock, err := lock(ctx, dir+".lock", func() {
		fmt.Fprintf(log, "waiting for another process installing into %s\n", dir)
	})
	if err != nil {
		return "", fmt.Errorf("locking %s.lock to install %s: %w", dir, spec, err)
	}
	defer unlock()
	// Whoever held the lock may have installed it.
	if bin, ok := find(dir); ok {
		return bin, nil
	}
	if err := clearStale(dir); err != nil {
		return "", fmt.Errorf("installing %s into %s: %w", spec, dir, err)
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
		return "", fmt.Errorf("moving the install of %s into %s: %w", spec, dir, err)
	}
	if bin, ok := find(dir); ok {
		return bin, nil
	}
	return "", fmt.Errorf("no working program under %s after npm install %s", dir, spec)
}

// npmMade are the names npm install --prefix writes in its folder; a
// folder of the temporary name "*.installing-*" is a leftover of an
// install that was killed.
var npmMade = map[string]bool{"package.json": true, "package-lock.json": true, "node_modules": true}

// leftoverAge is how old the leftover of an install must be for
// clearStale to remove it: a process that does not take the lock (an
// older version of this code) may still be writing a younger one.
const leftoverAge = time.Hour

// clearStale removes dir when it exists but holds no working program:
// when it is empty or holds only what npm writes. It refuses a dir that
// holds anything else (a user's folder, named by mistake), and removes
// the leftovers of killed installs beside dir.
func clearStale(dir string) error {
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), escapeGlob(filepath.Base(dir))+".installing-*"))
	for _, l := range leftovers {
		if fi, err := os.Stat(l); err == nil && time.Since(fi.ModTime()) > leftoverAge {
			os.RemoveAll(l)
		}
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !npmMade[e.Name()] {
			return fmt.Errorf("%w: %s has %q; name an empty or new folder", ErrNotOurs, dir, e.Name())
		}
	}
	// Move it aside first: the rename is atomic, the removal is not (a
	// removal cut short leaves a leftover, removed in an hour).
	old, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".installing-stale")
	if err != nil {
		return err
	}
	if err := os.Rename(dir, filepath.Join(old, "old")); err != nil {
		os.Remove(old)
		return fmt.Errorf("moving the stale install aside: %w", err)
	}
	return os.RemoveAll(old)
}

// escapeGlob escapes the pattern characters of a file name.
func escapeGlob(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	if os.PathSeparator == '\\' {
		// filepath.Match has no escapes on Windows; such a name just
		// matches more.
		return s
	}
	return r.Replace(s)
}
