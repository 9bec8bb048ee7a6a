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
