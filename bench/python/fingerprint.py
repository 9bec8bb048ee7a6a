"""The fingerprint example as a Python hook, for bench/run.sh: a PreToolUse
hook for the MCP tool listen_here (of any server) that adds the first 16 hex
digits of the SHA-256 of cwd to the call's arguments and allows the call.
Any other tool or event: exit 0, nothing printed."""
import hashlib
import json
import sys


def main():
    try:
        ev = json.load(sys.stdin)
    except ValueError as e:
        print("fingerprint:", e, file=sys.stderr)
        return 1
    parts = ev.get("tool_name", "").split("__")
    if ev.get("hook_event_name") != "PreToolUse" or len(parts) < 3 or parts[0] != "mcp" or parts[-1] != "listen_here":
        return 0
    tool_input = dict(ev["tool_input"])
    tool_input["fingerprint"] = hashlib.sha256(ev["cwd"].encode()).hexdigest()[:16]
    json.dump({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": tool_input,
    }}, sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
