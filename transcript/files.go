package transcript

import "github.com/go-json-experiment/json/jsontext"

// Files are the files the tool calls of a transcript touched, by the path
// the model gave, each once, in the order first touched.
type Files struct {
	// Edited are the files written or edited by Write, Edit, MultiEdit and
	// NotebookEdit calls.
	Edited []string
	// Read are the files read by Read calls.
	Read []string
}

// Files returns the files the calls touched, subagents' calls included. A
// call whose result is an error touched nothing and is left out; a call
// without a result yet is counted, as it may have run. Files a Bash
// command or an MCP tool changed are not known to the transcript and are
// not here.
func (s *Summary) Files() Files { return FilesOf(s.Calls) }

// FilesOf returns the files the calls touched, as [Summary.Files] does:
// pass a part of Summary.Calls, such as the current turn's.
func FilesOf(calls []*ToolCall) Files {
	var f Files
	seenE, seenR := map[string]bool{}, map[string]bool{}
	for _, c := range calls {
		if c.Result != nil && c.Result.IsError {
			continue
		}
		if p, ok := c.EditedPath(); ok && !seenE[p] {
			seenE[p] = true
			f.Edited = append(f.Edited, p)
		}
		if p, ok := c.ReadPath(); ok && !seenR[p] {
			seenR[p] = true
			f.Read = append(f.Read, p)
		}
	}
	return f
}

// EditedPath returns the file a Write, Edit, MultiEdit or NotebookEdit
// call writes to (its file_path, or notebook_path); ok is false for other
// calls and for an input without a path.
func (c *ToolCall) EditedPath() (path string, ok bool) {
	switch c.Name {
	case "Write", "Edit", "MultiEdit":
		return c.inputString("file_path")
	case "NotebookEdit":
		return c.inputString("notebook_path")
	}
	return "", false
}

// ReadPath returns the file a Read call reads; ok is false for other
// calls.
func (c *ToolCall) ReadPath() (path string, ok bool) {
	if c.Name != "Read" {
		return "", false
	}
	return c.inputString("file_path")
}

// Command returns the command line of a Bash call; ok is false for other
// calls.
func (c *ToolCall) Command() (command string, ok bool) {
	if c.Name != "Bash" {
		return "", false
	}
	return c.inputString("command")
}

// inputString returns the string member name of the call's input.
func (c *ToolCall) inputString(name string) (string, bool) {
	var s string
	eachMember(c.Input, func(n string, v jsontext.Value) {
		if n == name { // the last of duplicates, as JSON.parse
			s = str(v)
		}
	})
	return s, s != ""
}
