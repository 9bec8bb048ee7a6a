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
