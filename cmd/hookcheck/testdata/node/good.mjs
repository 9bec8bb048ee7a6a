// A good Node hook: on PreToolUse for Bash it denies commands that delete
// recursively and otherwise tells Claude how long the command is. It never
// sends updatedInput, so it cannot lose or mangle a member, and it checks
// the type of what it reads.
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const e = JSON.parse(text);
if (e.hook_event_name === "PreToolUse" && e.tool_name === "Bash") {
  const command = e.tool_input?.command;
  const specific = { hookEventName: "PreToolUse" };
  if (typeof command === "string" && /\brm\s+-rf\b/.test(command)) {
    specific.permissionDecision = "deny";
    specific.permissionDecisionReason = "recursive deletes need a person";
  } else {
    specific.additionalContext = `a command of ${String(command).length} characters`;
  }
  process.stdout.write(JSON.stringify({ hookSpecificOutput: specific }) + "\n");
}
