// Command gostandin stands in for the go command inside Wine, where no
// Windows Go toolchain is installed, for tests that build a Go hook with
// hooktest.BuildGo ("go build -o OUT PKG") and then run it.
//
// .ci/steps/60-wine.sh builds every package such a test names for
// windows/amd64 with the real go command beforehand, into a tree that
// mirrors the repository (HOOK_WINE_PREBUILT, a Windows path), and puts
// this program on Wine's PATH as go.exe. It answers "go build -o OUT PKG"
// by copying the prebuilt executable of PKG (resolved against its working
// folder and HOOK_WINE_REPO, the repository's Windows path) to OUT, so the
// test runs the same executable go build would have made. Anything else,
// or a package that was not prebuilt, fails loudly, as a missing
// toolchain would.
//
// It lives under .ci/, which the go command's ./... patterns skip, and is
// built only by the Wine step.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "go (the Wine step's stand-in):", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 4 || args[0] != "build" || args[1] != "-o" {
		return fmt.Errorf("only \"go build -o OUT PKG\" is served, not %q", args)
	}
	out, pkg := args[2], args[3]
	repo, prebuilt := os.Getenv("HOOK_WINE_REPO"), os.Getenv("HOOK_WINE_PREBUILT")
	if repo == "" || prebuilt == "" {
		return fmt.Errorf("HOOK_WINE_REPO and HOOK_WINE_PREBUILT must be set")
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(repo, filepath.Join(wd, pkg))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("package %s (in %s) is outside the repository %s", pkg, wd, repo)
	}
	src, err := os.Open(filepath.Join(prebuilt, rel) + ".exe")
	if err != nil {
		return fmt.Errorf("package %s was not prebuilt by .ci/steps/60-wine.sh: %w", pkg, err)
	}
	defer src.Close()
	dst, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
