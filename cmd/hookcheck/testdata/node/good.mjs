// A good Node hook: it denies Bash commands that delete recursively and
// says nothing otherwise. It never sends updatedInput, so it cannot lose a
// member, and it checks the type of what it reads.
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const e = JSON.parse(text);
const command = e.tool_input?.command;
if (e.hook_event_name === "PreToolUse" && e.tool_name === "Bash" && typeof command === "string" && /\brm\s+-rf\b/.test(command)) {
  const answer = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "recursive deletes need a person",
    },
  };
  process.stdout.write(JSON.stringify(answer) + "\n");
}
