package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// nextFile holds the API added since the last release; the released API
// is the union of the other .txt files in the api folder (v0.1.0.txt, …).
const nextFile = "next.txt"

// apiFiles is what the api folder holds: the released listings by file
// name, and the lines of next.txt.
type apiFiles struct {
	released map[string][]string
	next     []string
}

func readAPIFiles(dir string) (apiFiles, error) {
	files := apiFiles{released: map[string][]string{}}
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return files, err
	}
	for _, name := range names {
		lines, err := readLines(name)
		if err != nil {
			return files, err
		}
		base := filepath.Base(name)
		if base == nextFile {
			files.next = lines
		} else {
			files.released[base] = lines
		}
	}
	return files, nil
}

// releasedExcept returns the lines of every released file but skip.
func (f apiFiles) releasedExcept(skip string) map[string]bool {
	set := map[string]bool{}
	for name, lines := range f.released {
		if name == skip {
			continue
		}
		for _, l := range lines {
			set[l] = true
		}
	}
	return set
}

// readLines reads a listing, one line each, skipping blank lines; a
// missing file is an empty listing.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, sc.Err()
}

// writeLines writes a listing sorted, one line each.
func writeLines(path string, lines []string) error {
	lines = append([]string(nil), lines...)
	sort.Strings(lines)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// verdict is what the check found.
type verdict struct {
	// Removed lists the released lines the API no longer has: a name
	// removed or its signature changed, an incompatible change.
	Removed []string
	// Unlisted lists the API's lines in no file: new API that next.txt
	// must list (and the changelog describe).
	Unlisted []string
	// Stale lists next.txt's lines the API does not have.
	Stale []string
}

func (v verdict) ok() bool {
	return len(v.Removed) == 0 && len(v.Unlisted) == 0 && len(v.Stale) == 0
}

// compare checks the current listing against the released lines and
// next.txt's lines.
func compare(current []string, released map[string]bool, next []string) verdict {
	have := make(map[string]bool, len(current))
	for _, l := range current {
		have[l] = true
	}
	inNext := make(map[string]bool, len(next))
	for _, l := range next {
		inNext[l] = true
	}
	var v verdict
	for l := range released {
		if !have[l] {
			v.Removed = append(v.Removed, l)
		}
	}
	for _, l := range current {
		if !released[l] && !inNext[l] {
			v.Unlisted = append(v.Unlisted, l)
		}
	}
	for _, l := range next {
		if !have[l] {
			v.Stale = append(v.Stale, l)
		}
	}
	sort.Strings(v.Removed)
	sort.Strings(v.Unlisted)
	sort.Strings(v.Stale)
	return v
}

// additions returns the current lines that no released file holds: what
// next.txt lists.
func additions(current []string, released map[string]bool) []string {
	var out []string
	for _, l := range current {
		if !released[l] {
			out = append(out, l)
		}
	}
	return out
}

// report explains a failed check and what to do about each part.
func (v verdict) report(w io.Writer) {
	section := func(title, mark string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(w, "%s\n", title)
		for _, l := range lines {
			fmt.Fprintf(w, "%s%s\n", mark, l)
		}
	}
	section("apicheck: released API removed or changed (an incompatible change; a changed line also shows among the new ones):", "-", v.Removed)
	section("apicheck: new API that api/next.txt does not list; add these lines (go run ./internal/apicheck -next) and describe them in CHANGELOG.md's Unreleased section:", "+", v.Unlisted)
	section("apicheck: api/next.txt lists lines the API does not have; remove them (go run ./internal/apicheck -next):", " ", v.Stale)
}
