// Command context is a SessionStart hook that tells Claude where the git
// work stands when a session starts (or resumes, or is cleared or
// compacted): the branch, how it compares with its upstream, and a short
// status, for example
//
//	Git: on branch feature/login, tracking origin/feature/login (2 ahead, 1 behind); 1 staged, 2 modified, 1 untracked. Changed: api/server.go, api/server_test.go, README.md, notes.txt.
//
// It runs `git status --porcelain=v2 --branch -z` once, without taking
// git's optional locks, and gives up after five seconds. Outside a git
// repository, or without git installed, it adds nothing. Register it:
//
//	{"hooks": {"SessionStart": [{"hooks": [{"type": "command",
//	  "command": "/path/to/context"}]}]}}
//
// Try it in a repository:
//
//	go run ./examples/context < examples/context/testdata/startup.json
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the context hook.
func Handler() hook.Handler {
	return hook.SessionStartFunc(start)
}

func start(ctx context.Context, e *hook.SessionStart) (*hook.SessionStartOutput, error) {
	dir := e.Cwd
	if dir == "" {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", "--no-optional-locks", "-C", dir, "status", "--porcelain=v2", "--branch", "-z")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.Is(err, exec.ErrNotFound) || errors.As(err, &ee) && strings.Contains(errb.String(), "not a git repository") {
			return nil, nil // nothing to tell
		}
		return nil, fmt.Errorf("context: git status: %w: %s", err, strings.TrimSpace(errb.String()))
	}
	return &hook.SessionStartOutput{AdditionalContext: Summary(ParseStatus(out.Bytes()))}, nil
}

// Status is what `git status --porcelain=v2 --branch` says.
type Status struct {
	// Branch is the checked-out branch; empty for a detached HEAD.
	Branch string
	// Commit is the HEAD commit; empty before the first commit.
	Commit string
	// Upstream is the branch's upstream, if any.
	Upstream string
	// Ahead and Behind count commits relative to the upstream.
	Ahead, Behind int
	// Staged, Modified, Untracked and Conflicted count paths.
	Staged, Modified, Untracked, Conflicted int
	// Paths are the changed paths, in git's order.
	Paths []string
}

// ParseStatus reads the output of git status --porcelain=v2 --branch -z.
func ParseStatus(out []byte) Status {
	var s Status
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case strings.HasPrefix(f, "# branch.oid "):
			if oid := strings.TrimPrefix(f, "# branch.oid "); oid != "(initial)" {
				s.Commit = oid
			}
		case strings.HasPrefix(f, "# branch.head "):
			if h := strings.TrimPrefix(f, "# branch.head "); h != "(detached)" {
				s.Branch = h
			}
		case strings.HasPrefix(f, "# branch.upstream "):
			s.Upstream = strings.TrimPrefix(f, "# branch.upstream ")
		case strings.HasPrefix(f, "# branch.ab "):
			fmt.Sscanf(strings.TrimPrefix(f, "# branch.ab "), "+%d -%d", &s.Ahead, &s.Behind)
		case strings.HasPrefix(f, "1 ") || strings.HasPrefix(f, "2 "):
			// 1 XY sub mH mI mW hH hI path; 2 … Xscore path, then origPath.
			n := 9
			if f[0] == '2' {
				n = 10
				i++ // the original path follows as its own field
			}
			parts := strings.SplitN(f, " ", n)
			if len(parts) == n {
				xy := parts[1]
				if xy[0] != '.' {
					s.Staged++
				}
				if xy[1] != '.' {
					s.Modified++
				}
				s.Paths = append(s.Paths, parts[n-1])
			}
		case strings.HasPrefix(f, "u "):
			parts := strings.SplitN(f, " ", 11)
			s.Conflicted++
			if len(parts) == 11 {
				s.Paths = append(s.Paths, parts[10])
			}
		case strings.HasPrefix(f, "? "):
			s.Untracked++
			s.Paths = append(s.Paths, strings.TrimPrefix(f, "? "))
		}
	}
	return s
}

// maxPaths is how many changed paths Summary names.
const maxPaths = 8

// Summary says s in one short paragraph for Claude.
func Summary(s Status) string {
	var b strings.Builder
	b.WriteString("Git: ")
	switch {
	case s.Branch != "" && s.Commit == "":
		fmt.Fprintf(&b, "on branch %s (no commits yet)", s.Branch)
	case s.Branch != "":
		fmt.Fprintf(&b, "on branch %s", s.Branch)
	default:
		fmt.Fprintf(&b, "detached HEAD at %.12s", s.Commit)
	}
	if s.Upstream != "" {
		fmt.Fprintf(&b, ", tracking %s", s.Upstream)
		switch {
		case s.Ahead > 0 || s.Behind > 0:
			fmt.Fprintf(&b, " (%d ahead, %d behind)", s.Ahead, s.Behind)
		default:
			b.WriteString(" (up to date)")
		}
	}
	var counts []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.Staged, "staged"}, {s.Modified, "modified"}, {s.Untracked, "untracked"}, {s.Conflicted, "with merge conflicts"}} {
		if c.n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(counts) == 0 {
		b.WriteString("; the working tree is clean.")
		return b.String()
	}
	fmt.Fprintf(&b, "; %s. Changed: %s", strings.Join(counts, ", "), strings.Join(s.Paths[:min(len(s.Paths), maxPaths)], ", "))
	if len(s.Paths) > maxPaths {
		fmt.Fprintf(&b, " and %d more", len(s.Paths)-maxPaths)
	}
	b.WriteString(".")
	return b.String()
}
