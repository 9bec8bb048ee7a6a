package transcript

import (
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Type is the kind of a transcript line, its "type" member.
type Type string

// The types of line Claude Code writes that a hook most often needs.
// Claude Code writes others too (in 2.1.332: "queue-operation",
// "last-prompt", "tools-used", "cost-state", "api-request" and more, its
// own bookkeeping), and adds new ones: a Reader returns every line, known
// type or not.
const (
	// TypeUser is a user message: a prompt, or the results of tool calls.
	TypeUser Type = "user"
	// TypeAssistant is (a part of) a model message. Claude Code writes one
	// line per content block, each with the same Message.ID.
	TypeAssistant Type = "assistant"
	// TypeSystem is a note of the client itself (Subtype says which, such
	// as "stop_hook_summary" or "compact_boundary").
	TypeSystem Type = "system"
	// TypeSummary is the summary of a compacted or earlier conversation.
	TypeSummary Type = "summary"
	// TypeAttachment is context the client attached to the conversation
	// (the environment, the date, a file, hook output, …).
	TypeAttachment Type = "attachment"
	// TypeFileHistorySnapshot records the state of edited files, for undo.
	TypeFileHistorySnapshot Type = "file-history-snapshot"
)

// Entry is one line of a transcript. Its members are those a hook most
// often needs; every other member, and every member of a type of line
// this package does not know, is in Raw (see [Entry.Member]), so nothing
// of the line is lost.
type Entry struct {
	// Line is the line's number in the transcript, counted from 1.
	Line int
	// Raw is the line as written, without its line ending. It is nil
	// when the line was longer than the Reader's limit.
	Raw jsontext.Value
	// Err is non-nil when the line is not an entry: a [*LineError] for a
	// line that is not a JSON object (Truncated when it is the unfinished
	// last line) or that is longer than the limit. Line and Raw are set
	// then (Raw unless the line was too long), the other members empty.
	Err error

	// Type is the kind of line ("user", "assistant", …).
	Type Type
	// Subtype refines Type for some lines (system lines).
	Subtype string
	// UUID identifies the entry; ParentUUID is the entry before it in
	// the conversation ("" for the first).
	UUID, ParentUUID string
	// SessionID is the session's id.
	SessionID string
	// AgentID is the subagent's id in a subagent's transcript.
	AgentID string
	// IsSidechain is true for the entries of a subagent.
	IsSidechain bool
	// IsMeta is true for user entries the client wrote, not the user
	// (such as the output of a local command).
	IsMeta bool
	// IsCompactSummary is true for the user entry that carries the summary
	// a compaction wrote, to go on from.
	IsCompactSummary bool
	// Timestamp is when the entry was written, as written (RFC 3339);
	// see [Entry.Time].
	Timestamp string
	// CWD is the working directory at the time.
	CWD string
	// Message is the message of user and assistant entries, nil for
	// other lines.
	Message *Message
	// Summary is the text of a summary entry; LeafUUID the last entry it
	// summarizes.
	Summary, LeafUUID string
	// ToolUseResult is the structured result the client keeps beside a
	// tool result (for Edit the patch, for Bash stdout and stderr, …):
	// what each tool puts there differs and changes between versions.
	ToolUseResult jsontext.Value
}

// Message is a user or assistant message as the Messages API has it.
type Message struct {
	// ID is the API's message id (assistant messages only). Claude Code
	// writes each content block of a message on a line of its own, all
	// with the same ID.
	ID string
	// Role is "user" or "assistant".
	Role string
	// Model is the model that wrote an assistant message.
	Model string
	// StopReason is why the model stopped ("end_turn", "tool_use", …);
	// it may be empty on all but the last line of a message.
	StopReason string
	// Content are the message's content blocks. A message whose content
	// is a plain string has one text block holding it.
	Content []Block
	// Raw is the message object as written.
	Raw jsontext.Value
}

// Block is one content block of a message. Its Type says which members
// are set; Raw holds all of them, for the types this package does not
// know ("image", "redacted_thinking", "server_tool_use", …) too.
type Block struct {
	// Type is "text", "thinking", "tool_use", "tool_result", ….
	Type string
	// Text is a text block's text.
	Text string
	// Thinking is a thinking block's text.
	Thinking string
	// ID, Name and Input are a tool_use block's call id, tool name and
	// input object.
	ID, Name string
	Input    jsontext.Value
	// ToolUseID, Content and IsError are a tool_result block's call id,
	// content (a string or an array of blocks) and error flag.
	ToolUseID string
	Content   jsontext.Value
	IsError   bool
	// Raw is the block as written; for a message whose content is a
	// string, that string.
	Raw jsontext.Value
}

// parseEntry reads one line. cut says it is the last line and lacks its
// newline.
func parseEntry(line int, raw []byte, cut bool) *Entry {
	e := &Entry{Line: line, Raw: raw}
	var msg jsontext.Value
	err := eachMember(raw, func(name string, val jsontext.Value) {
		switch name {
		case "type":
			e.Type = Type(str(val))
		case "subtype":
			e.Subtype = str(val)
		case "uuid":
			e.UUID = str(val)
		case "parentUuid":
			e.ParentUUID = str(val)
		case "sessionId":
			e.SessionID = str(val)
		case "agentId":
			e.AgentID = str(val)
		case "isSidechain":
			e.IsSidechain = boolean(val)
		case "isMeta":
			e.IsMeta = boolean(val)
		case "isCompactSummary":
			e.IsCompactSummary = boolean(val)
		case "timestamp":
			e.Timestamp = str(val)
		case "cwd":
			e.CWD = str(val)
		case "message":
			msg = val
		case "summary":
			e.Summary = str(val)
		case "leafUuid":
			e.LeafUUID = str(val)
		case "toolUseResult":
			e.ToolUseResult = valueOrNil(val)
		}
	})
	if err != nil {
		return &Entry{Line: line, Raw: raw, Err: &LineError{Line: line, Truncated: cut, Err: err}}
	}
	if (e.Type == TypeUser || e.Type == TypeAssistant) && len(msg) > 0 && msg[0] == '{' {
		e.Message = parseMessage(msg)
	}
	return e
}

// parseMessage reads a message object; members it cannot read stay empty.
func parseMessage(raw jsontext.Value) *Message {
	m := &Message{Raw: raw}
	var content jsontext.Value
	eachMember(raw, func(name string, val jsontext.Value) {
		switch name {
		case "id":
			m.ID = str(val)
		case "role":
			m.Role = str(val)
		case "model":
			m.Model = str(val)
		case "stop_reason":
			m.StopReason = str(val)
		case "content":
			content = val
		}
	})
	switch {
	case len(content) == 0:
	case content[0] == '"':
		m.Content = []Block{{Type: "text", Text: str(content), Raw: content}}
	case content[0] == '[':
		m.Content = parseBlocks(content)
	}
	return m
}

// parseBlocks reads an array of content blocks; an element that is not
// an object is kept as a block with only Raw.
func parseBlocks(arr jsontext.Value) []Block {
	var out []Block
	eachElement(arr, func(val jsontext.Value) {
		b := Block{Raw: val}
		if val[0] == '{' {
			eachMember(val, func(name string, v jsontext.Value) {
				switch name {
				case "type":
					b.Type = str(v)
				case "text":
					b.Text = str(v)
				case "thinking":
					b.Thinking = str(v)
				case "id":
					b.ID = str(v)
				case "name":
					b.Name = str(v)
				case "input":
					b.Input = valueOrNil(v)
				case "tool_use_id":
					b.ToolUseID = str(v)
				case "content":
					b.Content = valueOrNil(v)
				case "is_error":
					b.IsError = boolean(v)
				}
			})
		}
		out = append(out, b)
	})
	return out
}

// Member returns the raw value of the entry's top-level member name, for
// the members Entry does not decode; ok is false when there is none.
func (e *Entry) Member(name string) (val jsontext.Value, ok bool) {
	if e.Err != nil {
		return nil, false
	}
	eachMember(e.Raw, func(n string, v jsontext.Value) {
		if n == name { // the last of duplicates, as JSON.parse
			val, ok = v, true
		}
	})
	return val, ok
}

// Time returns Timestamp parsed, the zero Time when it is missing or not
// RFC 3339.
func (e *Entry) Time() time.Time {
	t, err := time.Parse(time.RFC3339Nano, e.Timestamp)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Text returns the text of the entry's text blocks, joined by newlines:
// "" for entries without a message or without text. Claude Code has
// written short texts as entries with no text at all, so an empty Text
// does not mean the model said nothing; see [Summary.LastAssistantText].
func (e *Entry) Text() string {
	if e.Message == nil {
		return ""
	}
	var parts []string
	for _, b := range e.Message.Content {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ToolUses returns the entry's tool_use blocks: the tool calls of an
// assistant entry.
func (e *Entry) ToolUses() []Block { return e.blocks("tool_use") }

// ToolResults returns the entry's tool_result blocks: the results of tool
// calls that a user entry hands back to the model.
func (e *Entry) ToolResults() []Block { return e.blocks("tool_result") }

func (e *Entry) blocks(typ string) []Block {
	if e.Message == nil {
		return nil
	}
	var out []Block
	for _, b := range e.Message.Content {
		if b.Type == typ {
			out = append(out, b)
		}
	}
	return out
}

// IsPrompt reports whether the entry is a prompt that starts a turn: a
// user entry the client did not write itself (not IsMeta, not
// IsCompactSummary) that hands back no tool results. Besides what the user typed, this is also a message
// the client queued for the model, such as the notice that a background
// task finished.
func (e *Entry) IsPrompt() bool {
	if e.Type != TypeUser || e.IsMeta || e.IsCompactSummary || e.Message == nil {
		return false
	}
	for _, b := range e.Message.Content {
		if b.Type == "tool_result" {
			return false
		}
	}
	return true
}

// ResultText returns a tool_result block's content as text: the string,
// or the text of its text blocks joined by newlines (images and other
// blocks are left out).
func (b Block) ResultText() string {
	c := b.Content
	switch {
	case len(c) == 0:
		return ""
	case c[0] == '"':
		return str(c)
	case c[0] != '[':
		return ""
	}
	var parts []string
	for _, inner := range parseBlocks(c) {
		if inner.Type == "text" {
			parts = append(parts, inner.Text)
		}
	}
	return strings.Join(parts, "\n")
}
