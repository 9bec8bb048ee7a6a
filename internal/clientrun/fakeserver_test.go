package clientrun

// Tests of what the fake model APIs share: the proxy refusal, the error
// answers and the order of record and answer.

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFakeServersShareRouting(t *testing.T) {
	script := Script{Turns: [][]Call{{{Tool: "bash", Input: `{}`}}}}
	type api interface {
		Requests() []*Request
		Close() error
	}
	for _, tc := range []struct {
		name, path, errShape string
		start                func() (api, string, error)
	}{
		{"messages", "/v1/messages", `"type":"error"`, func() (api, string, error) {
			f, err := StartFakeAPI(script, nil)
			if err != nil {
				return nil, "", err
			}
			return f, f.URL, nil
		}},
		{"responses", "/v1/responses", `{"error":{`, func() (api, string, error) {
			f, err := StartFakeResponses(script, nil)
			if err != nil {
				return nil, "", err
			}
			return f, f.URL, nil
		}},
		{"chat", "/v1/chat/completions", `{"error":{`, func() (api, string, error) {
			f, err := StartFakeChat(script, nil)
			if err != nil {
				return nil, "", err
			}
			return f, f.URL, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, base, err := tc.start()
			require.NoError(t, err)
			defer f.Close()
			proxy, err := url.Parse(base)
			require.NoError(t, err)
			viaProxy := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
			calls := []struct {
				do       func() (*http.Response, error)
				code     int
				answered string
				body     string
			}{
				{func() (*http.Response, error) {
					return http.Post(base+tc.path, "application/json", strings.NewReader(`{"model":`))
				}, http.StatusBadRequest, "400", tc.errShape},
				{func() (*http.Response, error) { return http.Get(base + "/v1/nope") }, http.StatusNotFound, "404", tc.errShape},
				{func() (*http.Response, error) { return viaProxy.Get("http://example.invalid/x") }, http.StatusForbidden, "refused-proxy", "no outside hosts"},
			}
			for i, c := range calls {
				resp, err := c.do()
				require.NoError(t, err)
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				assert.Equal(t, c.code, resp.StatusCode)
				assert.Contains(t, string(b), c.body)
				// Recorded before the answer: there once the client has it.
				rs := f.Requests()
				require.Len(t, rs, i+1)
				assert.Equal(t, c.answered, rs[i].Answered)
				assert.Equal(t, i+1, rs[i].Seq)
			}
		})
	}
}

func TestContentTextFlattensParts(t *testing.T) {
	b := Block{Content: jsontext.Value(`[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64"}},{"type":"text","text":"b"}]`)}
	assert.Equal(t, "a\n{\"type\":\"image\",\"source\":{\"type\":\"base64\"}}\nb", b.ContentText())
	assert.Equal(t, "plain", Block{Content: jsontext.Value(`"plain"`)}.ContentText())
	assert.Equal(t, "", Block{}.ContentText())
	assert.Equal(t, "not json", Block{Content: jsontext.Value(`not json`)}.ContentText())
}
