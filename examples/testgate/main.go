// Command testgate is a Stop hook that keeps Claude from ending a turn in
// which it edited files without running the tests after its last edit,
// or with the last such test run failing. It reads the session's
// transcript (package transcript) to learn what the turn did: the files
// Write, Edit, MultiEdit and NotebookEdit changed, and the Bash commands
// that ran after them; and the transcripts of the subagents the turn ran,
// whose edits and test runs count where their Agent call is.
//
// Its arguments are regular expressions that a test command matches
// (default: DefaultTests, the usual test runners). Edits of documentation
// (.md, .txt, .rst and the like) need no tests. It lets Claude stop
// without tests when its last message asks the user a question (the
// Stop input's last_assistant_message, the transcript's last text when
// the input has none): the user answers first. It never loops: when
// Claude already goes on because of a Stop hook (stop_hook_active), it
// lets Claude stop and tells the user, with a system message. Register
// it:
//
//	{"hooks": {"Stop": [{"hooks": [{"type": "command",
//	  "command": "/path/to/testgate 'go test' 'make check'"}]}]}}
//
// Try it (the payload names a transcript in testdata, from the example's
// folder):
//
//	cd examples/testgate && go run . < testdata/stop.json
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/transcript"
)

// DefaultTests matches the command lines that run the usual test
// runners: the runner at the start of a command (the line's, or after ;,
// &&, ||, |, ( or $( ), after any VAR=value assignments and the wrappers
// timeout, time, nice, env, command and exec.
var DefaultTests = regexp.MustCompile(`(?m)(^|[;&|(])\s*((\w+=\S*|timeout(\s+-\S+)*\s+\S+|time|nice|env|command|exec)\s+)*` +
	`(go test|gotestsum|(npm|pnpm|yarn|bun)( run)? test|npx (jest|vitest)|jest|vitest|pytest|py\.test|python3? -m (pytest|unittest)|tox|nox|` +
	`cargo (test|nextest)|make (test|check)|mvn( -\S+)* (test|verify)|(\./)?gradlew? test|(bundle exec )?rspec|rake test|mix test|dotnet test|ctest|phpunit|\./vendor/bin/phpunit)` +
	`($|[\s:;&|)])`)

// docFile matches the files whose edits need no tests.
var docFile = regexp.MustCompile(`(?i)\.(md|markdown|txt|rst|adoc)$`)

// MaxListed caps how many edited files a reason names.
const MaxListed = 5

func main() {
	tests, err := patterns(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "testgate:", err)
		os.Exit(1) // a non-blocking error: Claude may stop
	}
	hook.Run(Handler(tests))
}

// patterns compiles the arguments into one expression, DefaultTests when
// there are none.
func patterns(args []string) (*regexp.Regexp, error) {
	if len(args) == 0 {
		return DefaultTests, nil
	}
	for _, a := range args {
		if _, err := regexp.Compile(a); err != nil {
			return nil, fmt.Errorf("test pattern %q: %w", a, err)
		}
	}
	return regexp.Compile("(?:" + strings.Join(args, ")|(?:") + ")")
}

// Handler returns the testgate hook; tests matches a test command line
// (nil means DefaultTests).
func Handler(tests *regexp.Regexp) hook.Handler {
	if tests == nil {
		tests = DefaultTests
	}
	return hook.StopFunc(func(ctx context.Context, e *hook.Stop) (*hook.StopOutput, error) {
		return gate(e, tests)
	})
}

// gate is the rule: see the package doc.
func gate(e *hook.Stop, tests *regexp.Regexp) (*hook.StopOutput, error) {
	if e.TranscriptPath == "" {
		return nil, nil // nothing to read (some hosted modes)
	}
	sum, err := transcript.SummarizeFile(e.TranscriptPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // a session that wrote nothing yet
	}
	if err != nil {
		return nil, fmt.Errorf("testgate: reading the transcript: %w", err)
	}
	v := check(sum, tests, e.TranscriptPath)
	if len(v.edited) == 0 || v.passed {
		return nil, nil
	}
	last := e.LastAssistantMessage // the source of truth at Stop time
	if last == "" {
		last = sum.LastAssistantText() // may lag behind: the fallback only
	}
	if strings.HasSuffix(strings.TrimSpace(last), "?") {
		return nil, nil // Claude asks the user something: let them answer
	}
	files := list(v.edited, e.Cwd)
	if e.StopHookActive {
		return &hook.StopOutput{Common: hook.Common{
			SystemMessage: fmt.Sprintf("testgate: Claude stopped without a passing test run after editing %s.", files),
		}}, nil
	}
	if v.failed != "" {
		return &hook.StopOutput{Block: true, Reason: fmt.Sprintf(
			"testgate: the last test run after your edits (`%s`) failed. Fix what fails and run the tests again before you stop; if the failure is not yours, say so.", oneLine(v.failed))}, nil
	}
	return &hook.StopOutput{Block: true, Reason: fmt.Sprintf(
		"testgate: you edited %s but ran no tests after your last edit. Run the tests and fix what fails before you stop; if they cannot run here, say why.", files)}, nil
}

// verdict is what the current turn did.
type verdict struct {
	edited []string // files edited in the turn, documentation left out
	passed bool     // a test command after the last edit succeeded
	failed string   // else the last test command after it, which failed
}

// act is one thing the turn did that counts: an edit of a file that needs
// tests, or a finished test run.
type act struct {
	edited string // the file edited, or
	test   string // the test command
	passed bool
}

// maxDepth bounds how deep subagents that start subagents are followed.
const maxDepth = 4

// check reads the current turn's calls (those after the last prompt) and
// those of the subagents they ran, whose calls are in transcripts of their
// own (transcript.SubagentPath): a subagent's edits and test runs count
// where its Agent call is.
func check(sum *transcript.Summary, tests *regexp.Regexp, path string) verdict {
	var turn []*transcript.ToolCall
	for _, c := range sum.Calls {
		if c.Line > sum.LastPrompt {
			turn = append(turn, c)
		}
	}
	acts := actsOf(turn, tests, path, 0)
	var v verdict
	seen := map[string]bool{}
	lastEdit := -1
	for i, a := range acts {
		if a.edited != "" {
			lastEdit = i
			if !seen[a.edited] {
				seen[a.edited] = true
				v.edited = append(v.edited, a.edited)
			}
		}
	}
	if lastEdit < 0 {
		return v
	}
	for _, a := range acts[lastEdit+1:] {
		if a.test != "" {
			v.passed, v.failed = a.passed, ""
			if !a.passed {
				v.failed = a.test
			}
		}
	}
	return v
}

// actsOf returns what calls did, in order, with the acts of the subagents
// that Agent calls ran in their place.
func actsOf(calls []*transcript.ToolCall, tests *regexp.Regexp, path string, depth int) []act {
	var acts []act
	for _, c := range calls {
		failed := c.Result != nil && c.Result.IsError
		if p, ok := c.EditedPath(); ok && !failed && !docFile.MatchString(p) {
			acts = append(acts, act{edited: p})
		}
		if cmd, ok := c.Command(); ok && tests.MatchString(cmd) && c.Result != nil && !background(c) {
			// A run without a result yet, or in the background, is not
			// finished: its result is not the tests'.
			acts = append(acts, act{test: cmd, passed: !failed})
		}
		if c.Result != nil && c.Result.AgentID != "" && depth < maxDepth {
			sub, err := transcript.SummarizeFile(transcript.SubagentPath(path, c.Result.AgentID))
			if err == nil { // no file: a client that keeps subagents inline
				acts = append(acts, actsOf(sub.Calls, tests, path, depth+1)...)
			}
		}
	}
	return acts
}

// background reports whether a Bash call ran in the background: its
// result says only that it started.
func background(c *transcript.ToolCall) bool {
	var in hook.BashInput
	return json.Unmarshal(c.Input, &in) == nil && in.RunInBackground
}

// list names the files, relative to dir when inside it, at most MaxListed.
func list(files []string, dir string) string {
	names := make([]string, 0, MaxListed)
	for i, f := range files {
		if i == MaxListed {
			names = append(names, fmt.Sprintf("and %d more", len(files)-MaxListed))
			break
		}
		if rel, err := filepath.Rel(dir, f); dir != "" && err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
		names = append(names, oneLine(f)) // a name from the model: one line, capped
	}
	return strings.Join(names, ", ")
}

// oneLine returns the first line of s, cut to 200 bytes.
func oneLine(s string) string {
	s, _, cut := strings.Cut(s, "\n")
	if len(s) > 200 {
		n := 200
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], true
	}
	if cut {
		s += " …"
	}
	return s
}
