// Command mcpprobe is a tiny stdio MCP server for the end-to-end tests. It
// offers one tool, listen_here {room, fingerprint}, and appends the exact
// bytes of the arguments of each call it receives, as Claude Code wrote
// them, to a log file:
//
//	mcpprobe LOGFILE
//
// Each log line is {"name":<tool name>,"arguments":<arguments>}, where
// <arguments> is copied byte for byte from the JSON-RPC request (never
// decoded and re-encoded), so escapes such as \ud800 are logged as sent.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// request is a JSON-RPC request or notification.
type request struct {
	ID     jsontext.Value `json:"id"`
	Method string         `json:"method"`
	Params jsontext.Value `json:"params"`
}

type callParams struct {
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

var opts = jsontext.AllowInvalidUTF8(true)

var tool = map[string]any{
	"name":        "listen_here",
	"description": "Register a listener in a room.",
	"inputSchema": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"room":        map[string]string{"type": "string"},
			"fingerprint": map[string]string{"type": "string"},
		},
	},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpprobe LOGFILE")
		os.Exit(2)
	}
	log, err := os.OpenFile(os.Args[1], os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpprobe:", err)
		os.Exit(1)
	}
	defer log.Close()
	if err := serve(os.Stdin, os.Stdout, log); err != nil {
		fmt.Fprintln(os.Stderr, "mcpprobe:", err)
		os.Exit(1)
	}
}

// serve answers newline-delimited JSON-RPC requests from in until it ends.
func serve(in io.Reader, out io.Writer, log io.Writer) error {
	r := bufio.NewReader(in) // lines can be long: no line limit
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if resp := handle(line, log); resp != nil {
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
func handle(line []byte, log io.Writer) []byte {
	var req request
	if err := json.Unmarshal(line, &req, opts); err != nil || len(req.ID) == 0 {
		return nil
	}
	var result any
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(req.Params, &p, opts)
		if p.ProtocolVersion == "" {
			p.ProtocolVersion = "2025-06-18"
		}
		result = map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]string{"name": "probe", "version": "0.0.1"},
		}
	case "ping":
		result = map[string]any{}
	case "tools/list":
		result = map[string]any{"tools": []any{tool}}
	case "tools/call":
		var p callParams
		if err := json.Unmarshal(req.Params, &p, opts); err != nil {
			return respond(req.ID, "error", map[string]any{"code": -32602, "message": "bad params: " + err.Error()})
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
		entry = append(entry, "}\n"...)
		if _, err := log.Write(entry); err != nil {
			return respond(req.ID, "error", map[string]any{"code": -32603, "message": "log: " + err.Error()})
		}
		result = map[string]any{"content": []any{map[string]string{"type": "text", "text": "listening"}}}
	default:
		return respond(req.ID, "error", map[string]any{"code": -32601, "message": "method not found: " + req.Method})
	}
	return respond(req.ID, "result", result)
}

func respond(id jsontext.Value, key string, v any) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, key: v}, json.Deterministic(true))
	if err != nil {
		panic(err) // our own values: a bug
	}
	return b
}
