package hook

import (
	"errors"
	"fmt"
)

// PermissionUpdateType is the kind of a [PermissionUpdate].
type PermissionUpdateType string

// The kinds of permission updates.
const (
	PermissionUpdateAddRules          PermissionUpdateType = "addRules"
	PermissionUpdateReplaceRules      PermissionUpdateType = "replaceRules"
	PermissionUpdateRemoveRules       PermissionUpdateType = "removeRules"
	PermissionUpdateSetMode           PermissionUpdateType = "setMode"
	PermissionUpdateAddDirectories    PermissionUpdateType = "addDirectories"
	PermissionUpdateRemoveDirectories PermissionUpdateType = "removeDirectories"
)

// PermissionBehavior is what a permission rule does.
type PermissionBehavior string

// The permission rule behaviors.
const (
	// BehaviorAllow lets matching calls run without a prompt.
	BehaviorAllow PermissionBehavior = "allow"
	// BehaviorDeny refuses matching calls.
	BehaviorDeny PermissionBehavior = "deny"
	// BehaviorAsk always prompts for matching calls.
	BehaviorAsk PermissionBehavior = "ask"
)

// PermissionDestination is where a [PermissionUpdate] is saved.
type PermissionDestination string

// The destinations of permission updates.
const (
	// DestinationUserSettings saves to ~/.claude/settings.json.
	DestinationUserSettings PermissionDestination = "userSettings"
	// DestinationProjectSettings saves to .claude/settings.json.
	DestinationProjectSettings PermissionDestination = "projectSettings"
	// DestinationLocalSettings saves to .claude/settings.local.json.
	DestinationLocalSettings PermissionDestination = "localSettings"
	// DestinationSession keeps the update for this session only.
	DestinationSession PermissionDestination = "session"
	// DestinationCLIArg applies the update as if given on the command line.
	DestinationCLIArg PermissionDestination = "cliArg"
)

// PermissionUpdate is one change to the permission settings: the
// "always allow" choices a [PermissionRequest] carries as
// PermissionSuggestions, and the changes a [PermissionRequestOutput]
// applies with UpdatedPermissions. Which fields it uses depends on Type:
//
//   - [PermissionUpdateAddRules], [PermissionUpdateReplaceRules],
//     [PermissionUpdateRemoveRules]: Rules, Behavior, Destination;
//   - [PermissionUpdateSetMode]: Mode, Destination;
//   - [PermissionUpdateAddDirectories], [PermissionUpdateRemoveDirectories]:
//     Directories, Destination.
//
// Echoing one of an event's PermissionSuggestions in UpdatedPermissions
// equals the user choosing that option in the permission dialog.
type PermissionUpdate struct {
	// Type says what the update does.
	Type PermissionUpdateType `json:"type"`
	// Rules are the permission rules to add, replace or remove.
	Rules []PermissionRule `json:"rules,omitempty"`
	// Behavior is what the rules do: allow, deny or ask.
	Behavior PermissionBehavior `json:"behavior,omitempty"`
	// Mode is the permission mode to switch to (setMode). Switching to
	// bypassPermissions only works in a session started with bypass
	// available, and is never saved as the default mode.
	Mode PermissionMode `json:"mode,omitempty"`
	// Directories are the absolute paths to add or remove as working
	// directories.
	Directories []string `json:"directories,omitempty"`
	// Destination is where the update is saved.
	Destination PermissionDestination `json:"destination"`
}

// check refuses an update that Claude Code's schema would reject.
func (u *PermissionUpdate) check() error {
	switch u.Destination {
	case DestinationUserSettings, DestinationProjectSettings, DestinationLocalSettings, DestinationSession, DestinationCLIArg:
	case "":
		return fmt.Errorf("a %s update needs a Destination", u.Type)
	default:
		return fmt.Errorf("destination %q is not one of userSettings, projectSettings, localSettings, session, cliArg", u.Destination)
	}
	rules, mode, dirs := false, false, false
	switch u.Type {
	case PermissionUpdateAddRules, PermissionUpdateReplaceRules, PermissionUpdateRemoveRules:
		rules = true
		switch u.Behavior {
		case BehaviorAllow, BehaviorDeny, BehaviorAsk:
		default:
			return fmt.Errorf("a %s update needs a Behavior of allow, deny or ask, not %q", u.Type, u.Behavior)
		}
		if len(u.Rules) == 0 {
			return fmt.Errorf("a %s update needs at least one rule", u.Type)
		}
		for _, r := range u.Rules {
			if r.ToolName == "" {
				return fmt.Errorf("a rule of a %s update has no ToolName", u.Type)
			}
		}
	case PermissionUpdateSetMode:
		mode = true
		switch u.Mode {
		case PermissionModeDefault, PermissionModePlan, PermissionModeAcceptEdits, PermissionModeAuto,
			PermissionModeDontAsk, PermissionModeBypassPermissions, "manual":
		default:
			return fmt.Errorf("a setMode update needs a Mode of default, acceptEdits, bypassPermissions, plan, dontAsk or auto, not %q", u.Mode)
		}
	case PermissionUpdateAddDirectories, PermissionUpdateRemoveDirectories:
		dirs = true
		if len(u.Directories) == 0 {
			return fmt.Errorf("a %s update needs at least one directory", u.Type)
		}
	case "":
		return errors.New("a permission update has no Type")
	default:
		return fmt.Errorf("permission update type %q is not one of addRules, replaceRules, removeRules, setMode, addDirectories, removeDirectories", u.Type)
	}
	switch {
	case !rules && (len(u.Rules) > 0 || u.Behavior != ""):
		return fmt.Errorf("a %s update takes no Rules or Behavior", u.Type)
	case !mode && u.Mode != "":
		return fmt.Errorf("a %s update takes no Mode", u.Type)
	case !dirs && len(u.Directories) > 0:
		return fmt.Errorf("a %s update takes no Directories", u.Type)
	}
	return nil
}

// PermissionRule is one permission rule, such as Bash with the content
// "git push *".
type PermissionRule struct {
	// ToolName is the tool the rule is about, e.g. "Bash" or an MCP tool
	// name.
	ToolName string `json:"toolName"`
	// RuleContent narrows the rule, e.g. "docker compose up *" for Bash;
	// empty means the whole tool.
	RuleContent string `json:"ruleContent,omitempty"`
}
