// The seed's Node fix: spread tool_input into updatedInput and add a
// fingerprint. JSON.parse and JSON.stringify keep every value Claude Code
// can send; 12345678901234567890, which it never sends, comes back
// rounded.
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const e = JSON.parse(text);
if (e.hook_event_name !== "PreToolUse" || e.tool_name !== "mcp__aisle__listen_here") process.exit(0);
const answer = {
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    updatedInput: { ...e.tool_input, fingerprint: "0123456789abcdef" },
  },
};
process.stdout.write(JSON.stringify(answer) + "\n");
