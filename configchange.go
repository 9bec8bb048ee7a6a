package hook

import (
	"errors"

	"github.com/gohooks/hook/internal/wire"
)

// ConfigSource says which settings changed.
type ConfigSource string

// The values of [ConfigChange.Source].
const (
	ConfigUserSettings    ConfigSource = "user_settings"
	ConfigProjectSettings ConfigSource = "project_settings"
	ConfigLocalSettings   ConfigSource = "local_settings"
	// ConfigPolicySettings changes cannot be blocked.
	ConfigPolicySettings ConfigSource = "policy_settings"
	ConfigSkills         ConfigSource = "skills"
)

// EventConfigChange fires when a settings or skills file changed during the
// session.
const EventConfigChange = "ConfigChange"

// ConfigChange fires when a settings file or the skills change during a
// session. The matcher is tested against Source. The answer can keep the
// change from being applied (see [ConfigChangeOutput]), except for policy
// settings; exit code 2 ([Block]) does too. Nothing is shown to anyone.
type ConfigChange struct {
	Event
	// Source says which settings changed.
	Source ConfigSource `json:"source"`
	// FilePath is the changed file, if any.
	FilePath string `json:"file_path,omitempty"`
}

// ConfigChangeOutput is the answer to a [ConfigChange] event. Claude Code
// discards Halt, StopReason and SystemMessage for this event.
type ConfigChangeOutput struct {
	Common

	// Block writes "decision": "block": the change is not applied. A
	// policy_settings change cannot be blocked; the library refuses to.
	Block bool
	// Reason explains the block (never shown); it needs Block.
	Reason string
}

func (o *ConfigChangeOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	decision, reason, err := blockFields(o.Block, o.Reason)
	if err != nil {
		return dst, err
	}
	if o.Block {
		var src ConfigSource
		if v, ok := ev.Field("source"); ok {
			_ = wire.Unmarshal(v, &src)
		}
		if src == ConfigPolicySettings {
			return dst, errors.New("a policy_settings change cannot be blocked; Claude Code applies it anyway")
		}
	}
	return appendWire(dst, answer{common: &o.Common, decision: decision, reason: reason})
}

// join merges n into a as [Chain] combines ConfigChange answers: the first block
// wins and stops the chain.
func (a *ConfigChangeOutput) join(n *ConfigChangeOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return joinGate(&a.Block, &a.Reason, n.Block, n.Reason), nil
}
