package clientrun

// The MCP probe: the calling program itself (claudetest's test binary,
// hookctl), started by Claude Code as an MCP server with one argument,
// CONFIG, is a stdio MCP server offering the tools CONFIG names ([ProbeConfig])
// and appending each call it receives to the log file CONFIG names, as one
// line {"name":<tool name>,"arguments":<arguments>,"tool_use_id":<id>},
// the id from the request's _meta when Claude Code sends one, where
// <arguments> is
// copied byte for byte from the JSON-RPC request
// (never decoded and re-encoded), so escapes such as \ud800 are logged as
// sent.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// ProbeConfig is what one probe server offers and where it logs.
type ProbeConfig struct {
	Name  string      `json:"name"`
	Log   string      `json:"log"`
	Tools []ProbeTool `json:"tools"`
}

// ProbeTool is one tool as the probe lists it, with its reply.
type ProbeTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema jsontext.Value `json:"inputSchema"`
	Reply       string         `json:"reply"`
}

// rpcRequest is a JSON-RPC request or notification.
type rpcRequest struct {
	ID     jsontext.Value `json:"id"`
	Method string         `json:"method"`
	Params jsontext.Value `json:"params"`
}

type callParams struct {
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

// ProbeMain runs the probe with the config file args[0] on stdin and
// stdout, and returns the exit code.
func ProbeMain(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: <program> CONFIG (run as the MCP probe)")
		return 2
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp probe:", err)
		return 1
	}
	var cfg ProbeConfig
	if err := Unmarshal(b, &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "mcp probe: config:", err)
		return 1
	}
	log, err := os.OpenFile(cfg.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp probe:", err)
		return 1
	}
	defer log.Close()
	if err := ServeProbe(&cfg, os.Stdin, os.Stdout, log); err != nil {
		fmt.Fprintln(os.Stderr, "mcp probe:", err)
		return 1
	}
	return 0
}

// ServeProbe answers newline-delimited JSON-RPC requests from in until it
// ends.
func ServeProbe(cfg *ProbeConfig, in io.Reader, out io.Writer, log io.Writer) error {
	r := bufio.NewReader(in) // lines can be long: no line limit
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if resp := cfg.handle(line, log); resp != nil {
				if _, werr := out.Write(append(resp, '\n')); werr != nil {
					return werr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// handle answers one message; it returns nil for notifications and
// unreadable lines.
func (cfg *ProbeConfig) handle(line []byte, log io.Writer) []byte {
	var req rpcRequest
	if err := Unmarshal(line, &req); err != nil || len(req.ID) == 0 {
		return nil
	}
	var result any
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		Unmarshal(req.Params, &p)
		if p.ProtocolVersion == "" {
			p.ProtocolVersion = "2025-06-18"
		}
		result = map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]string{"name": cfg.Name, "version": "0.0.1"},
		}
	case "ping":
		result = map[string]any{}
	case "tools/list":
		tools := make([]map[string]any, 0, len(cfg.Tools))
		for _, t := range cfg.Tools {
			tools = append(tools, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.InputSchema})
		}
		result = map[string]any{"tools": tools}
	case "tools/call":
		var p callParams
		if err := Unmarshal(req.Params, &p); err != nil {
			return respond(req.ID, "error", map[string]any{"code": -32602, "message": "bad params: " + err.Error()})
		}
		var tool *ProbeTool
		for i := range cfg.Tools {
			if cfg.Tools[i].Name == p.Name {
				tool = &cfg.Tools[i]
			}
		}
		if tool == nil {
			return respond(req.ID, "error", map[string]any{"code": -32602, "message": "unknown tool: " + p.Name})
		}
		args := p.Arguments
		if len(args) == 0 {
			args = jsontext.Value("{}")
		}
		name, _ := json.Marshal(p.Name)
		entry := make([]byte, 0, len(args)+len(name)+32)
		entry = append(entry, `{"name":`...)
		entry = append(entry, name...)
		entry = append(entry, `,"arguments":`...)
		entry = append(entry, args...)
		// Claude Code names the call in _meta; the id lets the Result
		// match the call to the script's.
		if id, ok := ValueAt(req.Params, "_meta", "claudecode/toolUseId"); ok && len(id) > 0 && id[0] == '"' {
			entry = append(entry, `,"tool_use_id":`...)
			entry = append(entry, id...)
		}
		entry = append(entry, "}\n"...)
		if _, err := log.Write(entry); err != nil {
			return respond(req.ID, "error", map[string]any{"code": -32603, "message": "log: " + err.Error()})
		}
		result = map[string]any{"content": []any{map[string]string{"type": "text", "text": tool.Reply}}}
	default:
		return respond(req.ID, "error", map[string]any{"code": -32601, "message": "method not found: " + req.Method})
	}
	return respond(req.ID, "result", result)
}

func respond(id jsontext.Value, key string, v any) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, key: v}, jsonopts.Deterministic())
	if err != nil {
		panic(err) // our own values: a bug
	}
	return b
}
