package clientrun

import (
	"path/filepath"
	"strings"
)

// ClaudeEnv returns the whole environment of a headless Claude Code run
// that may talk to nothing but the fake API at apiURL: HOME is home, PATH
// is path, the key is a dummy, telemetry, updates and other traffic are
// off, MCP tools are offered up front (not deferred behind ToolSearch),
// and the proxy variables point at the fake API, which logs and refuses
// any request for another host.
func ClaudeEnv(home, apiURL, path string) []string {
	return []string{
		"PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "HOME=" + home,
		"ANTHROPIC_BASE_URL=" + apiURL, "ANTHROPIC_API_KEY=dummy-fake-api-key",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		// MCP tools would otherwise be deferred behind ToolSearch and not
		// offered in the request's tools.
		"ENABLE_TOOL_SEARCH=false",
		// Anything that still tries another host goes to the fake API as
		// a proxy, which logs and refuses it.
		"HTTPS_PROXY=" + apiURL, "HTTP_PROXY=" + apiURL, "https_proxy=" + apiURL, "http_proxy=" + apiURL,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
}

// ClaudeArgs returns the arguments of a headless Claude Code run (`claude
// -p`): prompt, JSON output, the fixed session id, only the MCP servers of
// the file mcpConfig, the debug log written to debugFile, and each of
// pluginDirs loaded as with --plugin-dir (absolute paths). With stream,
// the prompt is not an argument: the run reads it, and any control
// requests such as an interrupt, as stream-json on stdin, and writes
// stream-json.
func ClaudeArgs(prompt string, stream bool, sessionID, mcpConfig, debugFile string, pluginDirs []string) ([]string, error) {
	args := []string{"-p", prompt, "--output-format", "json"}
	if stream {
		args = []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"}
	}
	args = append(args, "--session-id", sessionID,
		"--mcp-config", mcpConfig, "--strict-mcp-config", "--debug-file", debugFile)
	for _, d := range pluginDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		args = append(args, "--plugin-dir", abs)
	}
	return args, nil
}

// OutsideSettings are the settings members that could make Claude Code
// reach another host than the fake API, or run a helper that hands out
// credentials: a run refuses or drops them.
var OutsideSettings = []string{"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"}

// ReachesOut reports whether the environment variable name, set in a
// settings file's "env", would override what [ClaudeEnv] sets to keep
// Claude Code on the fake API: the API's address and key, the cloud
// providers, the proxies and telemetry.
func ReachesOut(name string) bool {
	u := strings.ToUpper(name)
	return strings.HasPrefix(u, "ANTHROPIC_") || strings.HasPrefix(u, "CLAUDE_CODE_USE_") || strings.HasSuffix(u, "_PROXY") ||
		strings.HasPrefix(u, "OTEL_") || u == "DISABLE_TELEMETRY" || u == "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"
}
