// Package transcript reads the transcripts Claude Code writes: the
// session's .jsonl file that every hook input names in transcript_path,
// and a subagent's, named by SubagentStop's agent_transcript_path.
//
// A transcript is JSON Lines, one object a line, appended to while the
// session runs. A [Reader] returns its lines one at a time as typed
// entries ([Entry]): user and assistant messages with their content
// blocks (text, thinking, tool_use, tool_result), summaries, system
// notes, attachments, and whatever else the client writes, each with its
// line as written (Entry.Raw), so that a member or a type of line this
// package does not know is never lost. A [Summary] gathers what a hook
// most often wants: the tool calls paired with their results by
// tool_use_id, the files they edited and read, and the last assistant
// text.
//
//	sum, err := transcript.SummarizeFile(e.TranscriptPath)
//	if err != nil { … }
//	for _, c := range sum.Calls {
//		if c.Result != nil && c.Result.IsError { … }
//	}
//	edited := sum.Files().Edited
//
// # What the transcript does not promise
//
// The format is Claude Code's own, not a published contract, and changes
// between versions; this package is tested on transcripts Claude Code
// 2.1.332 wrote (testdata/). What a hook author trips on:
//
//   - At Stop and SubagentStop the hook may run before the message Claude
//     ended with is in the file. The input's last_assistant_message
//     (hook.Stop.LastAssistantMessage, hook.SubagentStop's too) is that
//     message; [Summary.LastAssistantText] is only the fallback.
//   - Claude Code writes each content block of an assistant message on a
//     line of its own (the same Message.ID on each), and has saved short
//     texts as entries with no text: an assistant entry without text is
//     not the end of the message.
//   - The last line may be unfinished: the client appends while the hook
//     reads. It comes as an entry whose Err is a [*LineError] with
//     Truncated set, not as a failure of the Reader; read the file again
//     later for the whole line.
//   - Newer clients add types of lines (2.1.332 writes "queue-operation",
//     "tools-used", "api-request", "cost-state", … beside the messages)
//     and members. Switch on [Entry.Type] with a default that skips.
//   - A subagent's entries are in its own file (…/<session>/subagents/
//     agent-<id>.jsonl, [SubagentPath]) with IsSidechain set: the session's
//     file holds only the Agent call, whose result names the subagent
//     ([ToolResult].AgentID). Older clients wrote them into the session's
//     file, which is why a [Summary] keeps a subagent's text apart from the
//     main conversation's.
//   - The files a tool call touched are those its input names; a Bash
//     command or an MCP tool may change files the transcript cannot tell.
//
// # Limits
//
// A Reader holds one line at a time, however long; lines holding base64
// images or whole tool results reach tens of megabytes. It reads a line
// of up to [DefaultMaxLine] bytes (256 MiB; [Reader.SetMaxLine] changes
// it, 0 lifts it) and reads past a longer one in constant memory,
// returning an entry whose Err wraps [ErrLineTooLong]. A Summary keeps a
// copy of each call's input and result content, no more.
package transcript
