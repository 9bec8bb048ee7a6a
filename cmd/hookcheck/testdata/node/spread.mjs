// BROKEN ON PURPOSE. A hook that adds a fingerprint of the working
// directory to every MCP call, on PreToolUse and PermissionRequest alike.
// It decodes the payload with JSON.parse and spreads tool_input into its
// answer, so JavaScript numbers round 12345678901234567890 and escapes are
// rewritten; and it answers PermissionRequest with PreToolUse's
// hookEventName.
import { createHash } from "node:crypto";

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const e = JSON.parse(text);
const updates = e.hook_event_name === "PreToolUse" || e.hook_event_name === "PermissionRequest";
if (!updates || !e.tool_name.startsWith("mcp__")) process.exit(0);
const fingerprint = createHash("sha256").update(e.cwd).digest("hex").slice(0, 16);
const answer = {
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    updatedInput: { ...e.tool_input, fingerprint },
  },
};
process.stdout.write(JSON.stringify(answer) + "\n");
