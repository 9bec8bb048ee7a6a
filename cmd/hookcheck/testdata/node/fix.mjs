// The seed's Node fix, as most people write it: a PreToolUse hook (the
// only event it is registered for, with the matcher mcp__.*__listen_here)
// that spreads tool_input into its updatedInput and adds a fingerprint of
// the working directory. JSON.parse and JSON.stringify keep every value
// Claude Code can send, so it passes hookcheck; under -strict it fails on
// 12345678901234567890, which Claude Code never sends, as JSON.parse
// rounds it.
import { createHash } from "node:crypto";

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const e = JSON.parse(text);
if (e.hook_event_name !== "PreToolUse" || !/^mcp__.*__listen_here$/.test(e.tool_name)) process.exit(0);
const fingerprint = createHash("sha256").update(e.cwd).digest("hex").slice(0, 16);
const answer = {
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    updatedInput: { ...e.tool_input, fingerprint },
  },
};
process.stdout.write(JSON.stringify(answer) + "\n");
