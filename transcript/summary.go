package transcript

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Summary is what a transcript tells a hook, gathered entry by entry with
// [Summary.Add] (or all at once by [Summarize]): the tool calls paired
// with their results, the files they touched, the last assistant text and
// the lines that could not be read. It keeps the calls' inputs and result
// contents (copies, not the lines), not the entries; for anything else,
// use a [Reader] and keep what you need.
type Summary struct {
	// Entries counts the entries added, unreadable lines included.
	Entries int
	// Errors are the lines that could not be read, each a [*LineError];
	// when the last is Truncated the transcript was read while the client
	// was writing it.
	Errors []*LineError
	// Calls are the tool calls in the order the model made them, each
	// with its result once one is written.
	Calls []*ToolCall
	// LastPrompt is the line of the last entry that started a turn
	// ([Entry.IsPrompt]) outside subagents, 0 when there was none: the
	// calls after it are the current turn's.
	LastPrompt int

	byID                 map[string]*ToolCall
	early                map[string]*ToolResult
	lastMain, lastSide   string
	mainMsgID, sideMsgID string
}

// ToolCall is one tool call of the model, and its result.
type ToolCall struct {
	// ID is the call's tool_use_id.
	ID string
	// Name is the tool's name: "Bash", "Edit", "mcp__server__tool", ….
	Name string
	// Input is the call's input object, as the model wrote it.
	Input jsontext.Value
	// Line is the line of the assistant entry that holds the call.
	Line int
	// Sidechain is true for a subagent's call; AgentID names the
	// subagent when the transcript says.
	Sidechain bool
	AgentID   string
	// Result is the call's result, nil while none is written: the call is
	// still running, was interrupted, or the transcript was cut.
	Result *ToolResult
}

// ToolResult is the result of a tool call, as the model was told it.
type ToolResult struct {
	// Line is the line of the user entry that holds the result.
	Line int
	// IsError is true when the call failed or was refused (the block's
	// is_error).
	IsError bool
	// Content is the result block's content: a string or an array of
	// content blocks.
	Content jsontext.Value
	// AgentID names the subagent an Agent (formerly Task) call ran, from
	// the client's structured result (toolUseResult.agentId); "" for other
	// calls. The subagent's own transcript is [SubagentPath].
	AgentID string
}

// Text returns the result's text: the string, or its text blocks joined
// by newlines.
func (r *ToolResult) Text() string { return Block{Content: r.Content}.ResultText() }

// Summarize reads the transcript r to its end and summarizes it. Lines
// that cannot be read are in the Summary's Errors; the error is only that
// of reading r.
func Summarize(r io.Reader) (*Summary, error) {
	s := &Summary{}
	rd := NewReader(r)
	for rd.Next() {
		s.Add(rd.Entry())
	}
	return s, rd.Err()
}

// SummarizeFile summarizes the transcript at path, such as a hook
// input's transcript_path or a SubagentStop's agent_transcript_path. It
// reads only a regular file (or a link to one): a folder, a device or a
// named pipe is an error, not a read that never ends.
func SummarizeFile(path string) (*Summary, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("transcript: %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Summarize(f)
}

// Add adds the entry e to the summary.
func (s *Summary) Add(e *Entry) {
	s.Entries++
	if e.Err != nil {
		if le, ok := e.Err.(*LineError); ok {
			s.Errors = append(s.Errors, le)
		} else {
			s.Errors = append(s.Errors, &LineError{Line: e.Line, Err: e.Err})
		}
		return
	}
	if e.Message == nil {
		return
	}
	switch e.Type {
	case TypeUser:
		if e.IsPrompt() && !e.IsSidechain {
			s.LastPrompt = e.Line
		}
		results := e.ToolResults()
		for _, b := range results {
			r := &ToolResult{Line: e.Line, IsError: b.IsError, Content: bytes.Clone(b.Content)}
			if len(results) == 1 { // toolUseResult is the entry's: one result's
				r.AgentID = agentID(e.ToolUseResult)
			}
			if c := s.byID[b.ToolUseID]; c != nil {
				c.Result = r
			} else if b.ToolUseID != "" {
				if s.early == nil {
					s.early = map[string]*ToolResult{}
				}
				s.early[b.ToolUseID] = r
			}
		}
	case TypeAssistant:
		for _, b := range e.ToolUses() {
			c := &ToolCall{ID: b.ID, Name: b.Name, Input: bytes.Clone(b.Input), Line: e.Line, Sidechain: e.IsSidechain, AgentID: e.AgentID}
			if r, ok := s.early[b.ID]; ok {
				c.Result = r
				delete(s.early, b.ID)
			}
			s.Calls = append(s.Calls, c)
			if b.ID != "" {
				if s.byID == nil {
					s.byID = map[string]*ToolCall{}
				}
				s.byID[b.ID] = c
			}
		}
		text := e.Text()
		if text == "" {
			return // a tool call, thinking, or a short text saved empty
		}
		last, id := &s.lastMain, &s.mainMsgID
		if e.IsSidechain {
			last, id = &s.lastSide, &s.sideMsgID
		}
		if e.Message.ID != "" && e.Message.ID == *id {
			*last += "\n" + text // another block of the same message
		} else {
			*last = text
		}
		*id = e.Message.ID
	}
}

// Call returns the call with the tool_use_id id, nil when there is none.
func (s *Summary) Call(id string) *ToolCall { return s.byID[id] }

// LastAssistantText returns the text of the last assistant message that
// has text, outside subagents (in a subagent's own transcript, where
// every entry is the subagent's: its last). Assistant entries without
// text are passed over.
//
// At Stop and SubagentStop, do not take this for the message Claude just
// ended with: the hook may run before that message is in the transcript
// (and Claude Code has saved short texts as entries with no text). The
// hook input's last_assistant_message is the message; fall back to this
// only when the input has none:
//
//	last := e.LastAssistantMessage
//	if last == "" {
//		last = sum.LastAssistantText()
//	}
func (s *Summary) LastAssistantText() string {
	if s.mainMsgID != "" || s.lastMain != "" {
		return s.lastMain
	}
	return s.lastSide
}

// Truncated reports whether the last line read was unfinished: the
// transcript was read while the client was still writing it.
func (s *Summary) Truncated() bool {
	return len(s.Errors) > 0 && s.Errors[len(s.Errors)-1].Truncated
}

// agentID returns the agentId member of a toolUseResult object.
func agentID(result jsontext.Value) string {
	if len(result) == 0 || result[0] != '{' {
		return ""
	}
	var id string
	eachMember(result, func(name string, val jsontext.Value) {
		if name == "agentId" {
			id = str(val)
		}
	})
	return id
}

// SubagentPath returns the path of the transcript of the subagent agentID
// in the session whose transcript is at transcriptPath: the file
// <session>/subagents/agent-<agentID>.jsonl beside it, where Claude Code
// writes it (SubagentStop's agent_transcript_path names the same file).
// The session's own transcript holds only the Agent call and its result,
// not the calls the subagent made; read this file for those. It returns
// "" when agentID is not a plain name (empty, ".", or with "..", a path
// separator or a colon).
func SubagentPath(transcriptPath, agentID string) string {
	if agentID == "" || agentID == "." || strings.Contains(agentID, "..") || strings.ContainsAny(agentID, `/\:`) {
		return ""
	}
	dir := strings.TrimSuffix(transcriptPath, filepath.Ext(transcriptPath))
	return filepath.Join(dir, "subagents", "agent-"+agentID+".jsonl")
}
