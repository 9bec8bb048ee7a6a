package hook

// NotificationType says what a notification is about.
type NotificationType string

// The known notification types. Claude Code adds new ones often.
const (
	NotificationPermissionPrompt        NotificationType = "permission_prompt"
	NotificationIdlePrompt              NotificationType = "idle_prompt"
	NotificationAuthSuccess             NotificationType = "auth_success"
	NotificationElicitationDialog       NotificationType = "elicitation_dialog"
	NotificationElicitationURLDialog    NotificationType = "elicitation_url_dialog"
	NotificationElicitationComplete     NotificationType = "elicitation_complete"
	NotificationElicitationResponse     NotificationType = "elicitation_response"
	NotificationAgentNeedsInput         NotificationType = "agent_needs_input"
	NotificationAgentCompleted          NotificationType = "agent_completed"
	NotificationWorkerPermissionPrompt  NotificationType = "worker_permission_prompt"
	NotificationPushNotification        NotificationType = "push_notification"
	NotificationComputerUseEnter        NotificationType = "computer_use_enter"
	NotificationComputerUseExit         NotificationType = "computer_use_exit"
	NotificationQuotaAutoResumeFired    NotificationType = "quota_auto_resume_fired"
	NotificationQuotaAutoResumeStale    NotificationType = "quota_auto_resume_stale"
	NotificationQuotaAutoResumeDisabled NotificationType = "quota_auto_resume_disabled"
	NotificationModelRefusalFallback    NotificationType = "model_refusal_fallback"
	NotificationAuthStorageFailure      NotificationType = "auth_storage_failure"
	NotificationPluginNotification      NotificationType = "plugin_notification"
)

// EventNotification fires when Claude Code raises a notification.
const EventNotification = "Notification"

// Notification fires when Claude Code raises a notification (it needs a
// permission, it waits for input, …). The matcher is tested against
// NotificationType. Nothing can be decided: the exit code does not block,
// Claude Code discards Halt and SystemMessage, and only TerminalSequence
// (for a desktop notification, say) has a known effect.
type Notification struct {
	Event
	// Message is the notification's text.
	Message string `json:"message"`
	// Title is its title, if any.
	Title string `json:"title,omitempty"`
	// NotificationType says what the notification is about. The set is
	// open; the known values are the Notification* constants.
	NotificationType NotificationType `json:"notification_type"`
}

// NotificationOutput is the answer to a [Notification] event.
type NotificationOutput struct {
	Common

	// AdditionalContext is accepted by Claude Code's schema, but nothing
	// indicates that it is delivered anywhere.
	AdditionalContext string
}
