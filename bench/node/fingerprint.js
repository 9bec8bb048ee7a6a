// The fingerprint example as a Node hook, for bench/run.sh: a PreToolUse
// hook for the MCP tool listen_here (of any server) that adds the first 16
// hex digits of the SHA-256 of cwd to the call's arguments and allows the
// call. Any other tool or event: exit 0, nothing printed.
"use strict";
const crypto = require("crypto");

const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  let ev;
  try {
    ev = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (e) {
    process.stderr.write("fingerprint: " + e.message + "\n");
    process.exit(1);
  }
  const m = /^mcp__.+__(.+)$/.exec(ev.tool_name || "");
  if (ev.hook_event_name !== "PreToolUse" || !m || m[1] !== "listen_here") {
    process.exit(0);
  }
  const input = Object.assign({}, ev.tool_input);
  input.fingerprint = crypto.createHash("sha256").update(ev.cwd).digest("hex").slice(0, 16);
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      updatedInput: input,
    },
  }) + "\n");
});
