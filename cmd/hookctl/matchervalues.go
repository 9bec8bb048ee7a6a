package main

import "github.com/gohooks/hook"

// valuesOf returns the values Claude Code sends in the member event's
// matcher is tested against, for the events where they are a closed set
// (the library's constants, which the drift test checks against the
// SDK), or nil. Doctor says which of them a matcher matches, and warns
// when it matches none: such a hook never runs.
func valuesOf(event string) []string {
	switch event {
	case hook.EventInterrupt:
		return strs(hook.InterruptSourceUser, hook.InterruptSourceSession, hook.InterruptSourceSystem)
	case hook.EventSessionStart:
		return strs(hook.SessionStartStartup, hook.SessionStartResume, hook.SessionStartClear, hook.SessionStartCompact, hook.SessionStartFork)
	case hook.EventSessionEnd:
		return strs(hook.SessionEndClear, hook.SessionEndResume, hook.SessionEndLogout, hook.SessionEndPromptInputExit, hook.SessionEndOther)
	case hook.EventSetup:
		return strs(hook.SetupInit, hook.SetupMaintenance)
	case hook.EventPreCompact, hook.EventPostCompact:
		return strs(hook.CompactManual, hook.CompactAuto)
	case hook.EventConfigChange:
		return strs(hook.ConfigUserSettings, hook.ConfigProjectSettings, hook.ConfigLocalSettings, hook.ConfigPolicySettings, hook.ConfigSkills)
	case hook.EventInstructionsLoaded:
		return strs(hook.LoadSessionStart, hook.LoadNestedTraversal, hook.LoadPathGlobMatch, hook.LoadInclude, hook.LoadCompact)
	case hook.EventDirectoryAdded:
		return strs(hook.DirectorySlashCommand, hook.DirectoryRegisterRepoRoot)
	case hook.EventStopFailure:
		return strs(hook.StopErrorAuthenticationFailed, hook.StopErrorOAuthOrgNotAllowed, hook.StopErrorAccountOnHold,
			hook.StopErrorVerificationRequired, hook.StopErrorBillingError, hook.StopErrorRateLimit, hook.StopErrorOverloaded,
			hook.StopErrorInvalidRequest, hook.StopErrorModelNotFound, hook.StopErrorServerError, hook.StopErrorUnknown,
			hook.StopErrorMaxOutputTokens, hook.StopErrorCloudCredentialError)
	}
	return nil
}

// strs returns the values as strings.
func strs[S ~string](vs ...S) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
