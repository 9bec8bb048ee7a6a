package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// MaxTextChars is the most characters of an answer's text that Claude
// Code passes on whole: an additionalContext, a systemMessage, a
// SessionStart initialUserMessage or a plain-text answer longer than
// that is saved by Claude Code to a file of its own and replaced, for
// the model, by a notice holding the file's path and the first 2,000
// characters, without a word to the user or the hook. Characters are
// counted as JavaScript counts a string's length, in UTF-16 code units:
// a character outside the Basic Multilingual Plane, such as an emoji,
// counts two. [Server.LongText] says what the library does with a
// longer text instead.
const MaxTextChars = 10000

// LongTextPolicy says what a [Server] does with a text of an answer that
// is longer than [MaxTextChars]: an additionalContext, a systemMessage, a
// SessionStart initialUserMessage, or a plain-text answer (the Text of
// SessionStart, UserPromptSubmit and the other events whose plain stdout
// Claude Code reads). None of them lets the text reach Claude Code's own
// cut, which keeps only the first 2,000 characters inline.
type LongTextPolicy int

const (
	// LongTextSpill, the default, writes the whole text to a file (see
	// [Server.SpillDir]) and answers with as much of its head as fits,
	// cut at a line break where one is near, followed by a line that
	// says how long the text is and names the file, so that the model
	// knows it has not seen all of it and where the rest is. No character
	// is lost. A file that cannot be written is a failure of the answer
	// (exit 1, or 2 when failing closed), never a silent cut.
	LongTextSpill LongTextPolicy = iota
	// LongTextTruncate answers with as much of the text's head as fits,
	// cut at a line break where one is near, followed by a line saying
	// how many characters were cut. The rest is lost, but not silently:
	// the model reads that it was cut.
	LongTextTruncate
	// LongTextRefuse makes a text over the cap an invalid answer: nothing
	// is written and the hook fails (exit 1, or 2 when failing closed),
	// with a line on stderr naming the field and its length.
	LongTextRefuse
)

// String returns the policy's name, such as "LongTextSpill".
func (p LongTextPolicy) String() string {
	switch p {
	case LongTextSpill:
		return "LongTextSpill"
	case LongTextTruncate:
		return "LongTextTruncate"
	case LongTextRefuse:
		return "LongTextRefuse"
	}
	return fmt.Sprintf("LongTextPolicy(%d)", int(p))
}

// isWindows reports whether permission bits mean nothing here.
const isWindows = filepath.Separator == '\\'

// cappedMembers are the members of a JSON answer whose text Claude Code
// caps: at the top level, and inside hookSpecificOutput.
var (
	cappedTop      = []string{"systemMessage"}
	cappedSpecific = []string{"additionalContext", "initialUserMessage"}
)

// jsLen returns the length JavaScript gives the valid UTF-8 string s:
// its UTF-16 code units.
func jsLen(s string) int {
	return utf8.RuneCountInString(s) + astralCount(s)
}

// astralCount counts the characters of s outside the Basic Multilingual
// Plane, which JavaScript counts twice: the 4-byte UTF-8 sequences.
func astralCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xF0 {
			n++
		}
	}
	return n
}

// capBytes is capAnswer's work: the answer with its long texts replaced.
func (s *Server) capBytes(b []byte, out Output, ev *Event) ([]byte, error) {
	if pt, ok := out.(plainTextAnswer); ok && pt.plainText() {
		if ev.HookEventName == EventWorktreeCreate {
			// A path, never context: Claude Code creates nothing
			// from a preview, so a path that long is refused.
			if n := jsLen(string(b)); n > MaxTextChars {
				return nil, fmt.Errorf("the worktree path is %d characters, over the %d Claude Code passes on whole", n, MaxTextChars)
			}
			return b, nil
		}
		t, changed, err := s.capText(string(b), ev, "Text")
		if err != nil || !changed {
			return b, err
		}
		return []byte(t), nil
	}
	ms, err := rawjson.Members(b)
	if err != nil {
		return nil, fmt.Errorf("internal error: the answer is not one JSON object: %w", err)
	}
	changed := false
	for i := range ms {
		m := &ms[i]
		switch {
		case m.Key == "hookSpecificOutput" && len(m.Value) > MaxTextChars:
			sub, err := rawjson.Members(m.Value)
			if err != nil {
				return nil, fmt.Errorf("internal error: hookSpecificOutput is not one JSON object: %w", err)
			}
			subChanged, err := s.capMembers(sub, cappedSpecific, ev)
			if err != nil {
				return nil, err
			}
			if subChanged {
				m.Value, changed = rawjson.AppendObject(nil, sub), true
			}
		case slices.Contains(cappedTop, m.Key):
			c, err := s.capMembers(ms[i:i+1], cappedTop, ev)
			if err != nil {
				return nil, err
			}
			changed = changed || c
		}
	}
	if !changed {
		return b, nil
	}
	return rawjson.AppendObject(make([]byte, 0, len(b)), ms), nil
}

// capMembers applies the policy to the string members of ms named in
// names, in place, and reports whether one changed.
func (s *Server) capMembers(ms []rawjson.Member, names []string, ev *Event) (bool, error) {
	changed := false
	for i := range ms {
		m := &ms[i]
		if len(m.Value) <= MaxTextChars || !slices.Contains(names, m.Key) {
			continue
		}
		text, ok := wire.Unquote(m.Value)
		if !ok {
			continue
		}
		t, c, err := s.capText(text, ev, m.Key)
		if err != nil {
			return false, err
		}
		if !c {
			continue
		}
		v, err := wire.AppendMarshal(nil, t)
		if err != nil {
			return false, fmt.Errorf("encoding %s: %w", m.Key, err)
		}
		m.Value, changed = v, true
	}
	return changed, nil
}

// capText applies the policy to text, the value of field: the text to
// write instead, and whether it differs.
func (s *Server) capText(text string, ev *Event, field string) (string, bool, error) {
	n := jsLen(text)
	if n <= MaxTextChars {
		return text, false, nil
	}
	switch s.LongText {
	case LongTextRefuse:
		return "", false, fmt.Errorf("%s is %d characters (UTF-16 code units, as Claude Code counts them), over the %d Claude Code passes on whole; the Server's LongText is LongTextRefuse", field, n, MaxTextChars)
	case LongTextTruncate:
		// The notice's length depends on the number cut, which depends
		// on the notice: try the notice of the worst case first.
		head := cutHead(text, MaxTextChars-jsLen(truncateNotice(n, n)))
		return head + truncateNotice(n-jsLen(head), n), true, nil
	case LongTextSpill:
		path, err := s.spill(text, ev, field)
		if err != nil {
			return "", false, fmt.Errorf("%s is %d characters, over the %d Claude Code passes on whole, and could not be saved to a file (Server.LongText is LongTextSpill, which never drops text): %w", field, n, MaxTextChars, err)
		}
		notice := spillNotice(n, path)
		budget := MaxTextChars - jsLen(notice)
		if budget < MaxTextChars/2 {
			return "", false, fmt.Errorf("%s is %d characters; the path of the file it was saved to, %q, is too long to name in the answer", field, n, path)
		}
		return cutHead(text, budget) + notice, true, nil
	}
	return "", false, fmt.Errorf("the Server's LongText is %v, which is not a policy", s.LongText)
}

// truncateNotice is the line that ends a truncated text: cut characters
// of total were left out.
func truncateNotice(cut, total int) string {
	return fmt.Sprintf("\n\n[Cut here: the last %d of this text's %d characters were left out, over the %d Claude Code passes on.]", cut, total, MaxTextChars)
}

// spillNotice is the line that ends a spilled text of total characters
// whose whole is in the file path.
func spillNotice(total int, path string) string {
	return fmt.Sprintf("\n\n[Cut here: this text is %d characters, over the %d Claude Code passes on. The whole text is in the file %s; read it for the rest.]", total, MaxTextChars, path)
}

// cutHead returns the longest head of text of at most budget UTF-16 code
// units that ends at a line break, when that keeps at least half of the
// budget; otherwise the longest head of whole characters that does not
// end between a CR and its LF.
func cutHead(text string, budget int) string {
	if budget <= 0 {
		return ""
	}
	end, units, lastLine := 0, 0, -1
	for i, r := range text {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > budget {
			break
		}
		units += w
		end = i + utf8.RuneLen(r)
		if r == '\n' {
			lastLine = end
		}
	}
	if lastLine >= 0 && jsLen(text[:lastLine]) >= budget/2 {
		return text[:lastLine]
	}
	if end > 0 && text[end-1] == '\r' && end < len(text) && text[end] == '\n' {
		end--
	}
	return text[:end]
}

// spillDir returns the folder the whole texts go to: s.SpillDir, or a
// folder in the session's folder beside its transcript, where Claude Code
// saves its own long outputs (see sessionFolder), or one in the
// temporary folder.
func (s *Server) spillDir(ev *Event) string {
	if s.SpillDir != "" {
		return s.SpillDir
	}
	if dir, ok := sessionFolder(ev.TranscriptPath, ev.SessionID); ok {
		return filepath.Join(dir, "hook-context")
	}
	return filepath.Join(os.TempDir(), "gohooks-context")
}

// sessionFolder returns the session's folder beside the transcript tp of
// session id, where Claude Code keeps the session's files, when Claude
// Code made (or will make) it: the transcript's folder exists, or tp is
// <config>/projects/<project>/<id>.jsonl and <config> exists (Claude
// Code makes the project's folder with the transcript's first line,
// after a first session's SessionStart hooks have run). A payload
// written by hand (a test's) must not make a tree of folders wherever it
// points.
func sessionFolder(tp, id string) (string, bool) {
	if !filepath.IsAbs(tp) || !plainName(id) {
		return "", false
	}
	dir := filepath.Dir(tp)
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	if isDir(dir) || filepath.Base(tp) == id+".jsonl" && filepath.Base(filepath.Dir(dir)) == "projects" && isDir(filepath.Dir(filepath.Dir(dir))) {
		return filepath.Join(dir, id), true
	}
	return "", false
}

// plainName reports whether id can be one element of a path as it is.
func plainName(id string) bool {
	return id != "" && id != "." && id != ".." && !strings.ContainsAny(id, `/\:`) && filepath.Base(id) == id && len(id) <= 200
}

// spill writes text, the value of field in the answer to ev, to a file
// named after its event, its field and its content, and returns the
// file's absolute path. The same text always goes to the same file, so
// writing it again changes nothing; the file is written whole under
// another name first and then renamed, so that a reader never sees part
// of it. The folder is made readable by its owner only.
func (s *Server) spill(text string, ev *Event, field string) (string, error) {
	dir, err := filepath.Abs(s.spillDir(ev))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if s.SpillDir == "" {
		// The library's own folder must be what it made: not a link, not
		// another user's, not open to others, who could read the text or
		// put another in its place before the model reads it.
		fi, err := os.Lstat(dir)
		if err != nil {
			return "", err
		}
		if !fi.IsDir() || !ownedByMe(fi) || fi.Mode().Perm()&0o077 != 0 && !isWindows {
			return "", fmt.Errorf("the folder %s is not a folder of this user's that only it can open", dir)
		}
	}
	sum := sha256.Sum256([]byte(ev.SessionID + "\x00" + ev.HookEventName + "\x00" + field + "\x00" + text))
	event := ev.HookEventName
	if !plainName(event) {
		event = "event"
	}
	path := filepath.Join(dir, event+"-"+field+"-"+hex.EncodeToString(sum[:16])+".txt")
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(text)) {
		if old, err := os.ReadFile(path); err == nil && string(old) == text {
			return path, nil
		}
	}
	f, err := os.CreateTemp(dir, ".spill-*")
	if err != nil {
		return "", err
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return path, nil
}
