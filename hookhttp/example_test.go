package hookhttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
)

// An http hook: the same Handler a command hook runs, served by net/http.
// A Block is written as the event's JSON block form with a 200, because
// Claude Code lets the action through on any other status.
func ExampleServerHandler() {
	guard := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		if strings.Contains(in.Command, "rm -rf /") {
			return nil, hook.Block("not the root folder")
		}
		return nil, nil
	})
	srv := httptest.NewServer(hookhttp.ServerHandler(&hook.Server{FailClosed: true}, guard, nil))
	defer srv.Close()

	for _, cmd := range []string{"ls", "rm -rf /"} {
		body := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"},"tool_use_id":"toolu_1"}`
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s: %d %q\n", cmd, resp.StatusCode, answer)
	}
	// Output:
	// ls: 200 ""
	// rm -rf /: 200 "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"not the root folder\"}}"
}

// A shared secret: the settings send the token from an environment
// variable listed in allowedEnvVars, and the server compares it in
// constant time.
//
//	{"type": "http", "url": "http://127.0.0.1:8417/",
//	 "headers": {"Authorization": "Bearer $HOOK_TOKEN"},
//	 "allowedEnvVars": ["HOOK_TOKEN"]}
func ExampleOptions_bearerToken() {
	h := hookhttp.Handler(hook.NewMux(), &hookhttp.Options{BearerToken: "s3cret"})
	srv := httptest.NewServer(h)
	defer srv.Close()

	for _, auth := range []string{"", "Bearer s3cret"} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"hook_event_name":"Stop","session_id":"s","transcript_path":"/t","cwd":"/p"}`))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Printf("%q: %d\n", auth, resp.StatusCode)
	}
	// Output:
	// "": 401
	// "Bearer s3cret": 200
}
