package hook

// SessionStartSource says why a session starts.
type SessionStartSource string

// The values of [SessionStart.Source].
const (
	SessionStartStartup SessionStartSource = "startup"
	SessionStartResume  SessionStartSource = "resume"
	SessionStartClear   SessionStartSource = "clear"
	SessionStartCompact SessionStartSource = "compact"
	// SessionStartFork is sent since v2.1.214; earlier forks reported
	// resume.
	SessionStartFork SessionStartSource = "fork"
)

// EventSessionStart fires when a session starts, resumes, is cleared,
// compacted or forked.
const EventSessionStart = "SessionStart"

// SessionStart fires when a session starts, resumes, is cleared, is
// compacted or is forked. The matcher is tested against Source. It cannot
// block; the answer adds context at the start of the conversation and can
// set the title, the FileChanged watch list, a first user message, and
// reload skills (see [SessionStartOutput]). Plain stdout (see
// [SessionStartOutput.Text]) becomes context. Exit code 2 only shows
// stderr to the user. The hook may append "export" lines to the file named
// by $CLAUDE_ENV_FILE to set variables for later Bash calls.
type SessionStart struct {
	Event
	// Source says why the session starts. A session started with --agent
	// has Event.AgentType set.
	Source SessionStartSource `json:"source"`
	// Model is the active model's id; often absent (never rely on it).
	Model string `json:"model,omitempty"`
	// SessionTitle is the session's title, if one is set.
	SessionTitle string `json:"session_title,omitempty"`
	// SecondsSinceLastResponse is the time since the resumed transcript's
	// last response (resume and fork only).
	SecondsSinceLastResponse float64 `json:"seconds_since_last_response,omitempty"`
	// ContextTokens is the number of tokens the first request re-sends
	// (resume and fork only).
	ContextTokens int64 `json:"context_tokens,omitempty"`
	// PromptCacheLikelyExpired is true when the prompt cache has probably
	// expired, so the first request re-caches ContextTokens (resume and
	// fork only).
	PromptCacheLikelyExpired bool `json:"prompt_cache_likely_expired,omitempty"`
	// EstimatedCacheWriteUSD is the estimated cost of that re-caching, in
	// US dollars (resume and fork only).
	EstimatedCacheWriteUSD float64 `json:"estimated_cache_write_usd,omitempty"`
}

// SessionStartOutput is the answer to a [SessionStart] event. All the
// common fields are honoured.
type SessionStartOutput struct {
	Common

	// AdditionalContext is added at the start of the conversation.
	AdditionalContext string
	// InitialUserMessage is the first user turn of a -p session.
	InitialUserMessage string
	// SessionTitle sets the session's title (ignored when Source is clear
	// or compact).
	SessionTitle string
	// WatchPaths replaces the list of files whose changes fire
	// FileChanged. A nil slice leaves the list alone; a non-nil empty
	// slice clears it.
	WatchPaths []string
	// ReloadSkills re-scans the skill and command directories after the
	// SessionStart hooks, so skills the hook installed are available.
	ReloadSkills bool
	// Text, when set, is the whole answer, written as plain text that
	// Claude Code adds to Claude's context; see
	// [UserPromptSubmitOutput.Text].
	Text string
}

func (o *SessionStartOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if o.Text != "" {
		return appendText(dst, o.Text, otherThanText(o))
	}
	a := answer{common: &o.Common}
	if o.AdditionalContext != "" || o.InitialUserMessage != "" || o.SessionTitle != "" || o.WatchPaths != nil || o.ReloadSkills {
		a.specific = &sessionStartSpecific{
			HookEventName:      EventSessionStart,
			AdditionalContext:  o.AdditionalContext,
			InitialUserMessage: o.InitialUserMessage,
			SessionTitle:       o.SessionTitle,
			WatchPaths:         o.WatchPaths,
			ReloadSkills:       o.ReloadSkills,
		}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines SessionStart answers: texts
// stay text while every answer is text; contexts and initial messages
// joined, the last title, the union of the watch paths, reloadSkills from
// any.
func (a *SessionStartOutput) join(n *SessionStartOutput) (stop bool, err error) {
	if err := joinPlainText(&a.Text, &a.AdditionalContext, a, n, n.Text); err != nil {
		return false, err
	}
	a.Common.join(n.Common)
	a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
	a.InitialUserMessage = joinText(a.InitialUserMessage, n.InitialUserMessage)
	if n.SessionTitle != "" {
		a.SessionTitle = n.SessionTitle
	}
	a.WatchPaths = unionPaths(a.WatchPaths, n.WatchPaths)
	a.ReloadSkills = a.ReloadSkills || n.ReloadSkills
	return false, nil
}

// SessionEndReason says why a session ends.
type SessionEndReason string

// The values of [SessionEnd.Reason].
const (
	SessionEndClear  SessionEndReason = "clear"
	SessionEndResume SessionEndReason = "resume"
	SessionEndLogout SessionEndReason = "logout"
	// SessionEndPromptInputExit: the user left the prompt input.
	SessionEndPromptInputExit SessionEndReason = "prompt_input_exit"
	// SessionEndOther: anything else, including the end of a -p run.
	SessionEndOther SessionEndReason = "other"
)

// SetupTrigger says what ran a [Setup].
type SetupTrigger string

// The values of [Setup.Trigger].
const (
	SetupInit        SetupTrigger = "init"
	SetupMaintenance SetupTrigger = "maintenance"
)

// sessionStartSpecific is the hookSpecificOutput of a SessionStart answer.
type sessionStartSpecific struct {
	HookEventName      string   `json:"hookEventName"`
	AdditionalContext  string   `json:"additionalContext,omitempty"`
	InitialUserMessage string   `json:"initialUserMessage,omitempty"`
	SessionTitle       string   `json:"sessionTitle,omitempty"`
	WatchPaths         []string `json:"watchPaths,omitzero"`
	ReloadSkills       bool     `json:"reloadSkills,omitzero"`
}

// EventSessionEnd fires when a session ends.
const EventSessionEnd = "SessionEnd"

// SessionEnd fires when a session ends. The matcher is tested against
// Reason. Nothing can be decided: Claude Code discards the answer's
// fields, and exit code 2 only prints stderr. SessionEnd hooks share a
// short time budget (1.5 s by default).
type SessionEnd struct {
	Event
	// Reason says why the session ends.
	Reason SessionEndReason `json:"reason"`
}

// SessionEndOutput is the answer to a [SessionEnd] event: only the common
// fields, which Claude Code discards for this event.
type SessionEndOutput struct {
	Common
}

// EventSetup fires on --init-only, or -p with --init or --maintenance.
const EventSetup = "Setup"

// Setup fires for --init-only, and for -p with --init or --maintenance.
// The matcher is tested against Trigger. It cannot block; the answer can
// add context (see [SetupOutput]). Unlike SessionStart, plain stdout is
// not context. Exit code 2 only shows stderr to the user.
type Setup struct {
	Event
	// Trigger says what ran the setup.
	Trigger SetupTrigger `json:"trigger"`
}

// SetupOutput is the answer to a [Setup] event.
type SetupOutput struct {
	Common

	// AdditionalContext is added at the start of the conversation.
	AdditionalContext string
}
