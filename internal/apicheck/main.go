// Command apicheck guards the module's public API the way the Go project
// guards its own with api/go1.*.txt and cmd/api. It lists every exported
// name of the public packages (every package that is not a command, not
// internal and not test files only: hook, hookhttp, hooktest, settings,
// claudetest), with its signature, one sorted line each:
//
//	pkg github.com/gohooks/hook, func Merge(jsontext.Value, interface{}) (jsontext.Value, error)
//
// and compares that listing with the api folder at the module root: every
// line of a released file (api/v0.1.0.txt, …) must still be there
// unchanged, and every other line must be in api/next.txt, the API added
// since the last release. Run from the module root:
//
//	go run ./internal/apicheck                  check (CI: .ci/steps/12-api.sh)
//	go run ./internal/apicheck -next            rewrite api/next.txt with the additions
//	go run ./internal/apicheck -release v0.2.0  write api/v0.2.0.txt from the additions
//	                                            (or rewrite that release's file) and empty next.txt
//
// It reads the compiler's export data (`go list -export`), so it needs the
// go command and the module cache only: it runs offline.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// releaseName is what -release accepts: a semantic version.
var releaseName = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// run is the command: it returns the exit code (0 when the API matches
// the files or they were written, 1 when the check failed, 2 on misuse).
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("apicheck", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("dir", ".", "a folder of the module to check")
	next := fl.Bool("next", false, "rewrite api/next.txt with the API no released file lists")
	release := fl.String("release", "", "write api/`VERSION`.txt with the API no other released file lists, and empty api/next.txt")
	list := fl.Bool("list", false, "print the current listing and exit")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 || (*next && *release != "") {
		fmt.Fprintln(stderr, "usage: apicheck [-dir folder] [-next | -release vX.Y.Z | -list]")
		return 2
	}
	if *release != "" && !releaseName.MatchString(*release) {
		fmt.Fprintf(stderr, "apicheck: -release %q is not a version such as v0.2.0\n", *release)
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "apicheck: %v\n", err)
		return 1
	}

	root, err := moduleRoot(*dir)
	if err != nil {
		return fail(err)
	}
	paths, err := publicPackages(root)
	if err != nil {
		return fail(err)
	}
	current, err := listAPI(root, paths)
	if err != nil {
		return fail(err)
	}
	if *list {
		for _, l := range current {
			fmt.Fprintln(stdout, l)
		}
		return 0
	}

	apiDir := filepath.Join(root, "api")
	files, err := readAPIFiles(apiDir)
	if err != nil {
		return fail(err)
	}
	switch {
	case *release != "":
		name := *release + ".txt"
		if err := os.MkdirAll(apiDir, 0o755); err != nil {
			return fail(err)
		}
		lines := additions(current, files.releasedExcept(name))
		if err := writeLines(filepath.Join(apiDir, name), lines); err != nil {
			return fail(err)
		}
		if err := writeLines(filepath.Join(apiDir, nextFile), nil); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "apicheck: wrote api/%s (%d lines) and emptied api/%s\n", name, len(lines), nextFile)
		files.released[name] = lines
		files.next = nil
	case *next:
		if err := os.MkdirAll(apiDir, 0o755); err != nil {
			return fail(err)
		}
		lines := additions(current, files.releasedExcept(""))
		if err := writeLines(filepath.Join(apiDir, nextFile), lines); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "apicheck: wrote api/%s (%d lines)\n", nextFile, len(lines))
		files.next = lines
	}

	if len(files.released) == 0 {
		return fail(fmt.Errorf("no released listing in %s (write the first with -release v0.1.0)", apiDir))
	}
	v := compare(current, files.releasedExcept(""), files.next)
	if !v.ok() {
		v.report(stderr)
		return 1
	}
	fmt.Fprintf(stdout, "apicheck: the API of %d packages matches api/ (%d lines, %d new since the last release)\n",
		len(paths), len(current), len(files.next))
	return 0
}

// moduleRoot returns the folder of the go.mod that governs dir.
func moduleRoot(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("%s is not in a module", dir)
	}
	return filepath.Dir(gomod), nil
}
