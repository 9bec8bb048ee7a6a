package e2e_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/jsonopts"
)

// codexListedHook is one hook as `codex app-server` lists it (method
// hooks/list): its key in [hooks.state], the hash Codex would record to
// trust it as it is now, and whether it is trusted.
type codexListedHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	SourcePath  string `json:"sourcePath"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"` // "trusted", "untrusted", "modified", "managed"
	Enabled     bool   `json:"enabled"`
	TimeoutSec  uint64 `json:"timeoutSec"`
}

// codexListHooks asks the real Codex, as `codex app-server` over stdio
// (JSON-RPC, one message a line), for the hooks it finds for project
// with CODEX_HOME (and HOME) home: their keys, hashes and trust, and the
// warnings it has about the files.
func codexListHooks(t *testing.T, bin, home, project string) (hooks []codexListedHook, warnings []string) {
	t.Helper()
	// A safety net for a hung client, not a speed target.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "app-server")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "HOME="+home, "OPENAI_API_KEY=fake", "NO_COLOR=1", "RUST_LOG=")
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		stdin.Close() // app-server exits when its stdin closes
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 64<<20)
	send := func(msg map[string]any) {
		b, err := json.Marshal(msg)
		require.NoError(t, err)
		_, err = stdin.Write(append(b, '\n'))
		require.NoError(t, err)
	}
	// await returns the result of the request id, skipping notifications.
	await := func(id int) jsontext.Value {
		for lines.Scan() {
			var msg struct {
				ID     *int           `json:"id"`
				Result jsontext.Value `json:"result"`
				Error  jsontext.Value `json:"error"`
			}
			if json.Unmarshal(lines.Bytes(), &msg, jsonopts.Lenient()) != nil || msg.ID == nil || *msg.ID != id {
				continue
			}
			require.Empty(t, msg.Error, "app-server request %d: %s", id, lines.Bytes())
			return msg.Result
		}
		t.Fatalf("app-server stopped before answering request %d: %v", id, lines.Err())
		return nil
	}
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"clientInfo": map[string]any{"name": "gohooks-e2e", "version": "1"}}})
	await(1)
	send(map[string]any{"method": "initialized"})
	send(map[string]any{"id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{project}}})
	var res struct {
		Data []struct {
			Hooks    []codexListedHook `json:"hooks"`
			Warnings []string          `json:"warnings"`
		} `json:"data"`
	}
	raw := await(2)
	require.NoError(t, json.Unmarshal(raw, &res, jsonopts.Lenient()), "%s", raw)
	require.Len(t, res.Data, 1, "%s", raw)
	return res.Data[0].Hooks, res.Data[0].Warnings
}

// codexMinimalConfig is a config.toml with hooks on and no model
// provider: enough for app-server to list hooks.
const codexMinimalConfig = "model = \"fake-model\"\n[features]\nhooks = true\n"

// trustTable returns the [hooks.state] table that trusts the hook key
// with hash, as Codex writes it.
func trustTable(key, hash string) string {
	return fmt.Sprintf("\n[hooks.state.%q]\ntrusted_hash = %q\n", key, hash)
}
