// A fake OpenAI Responses API for running the real Codex CLI headless on
// 127.0.0.1, for e2e/codex_test.go. Node standard library only. Adapted
// from the project's shared notes on Codex: the port is printed on stdout
// (one line, once listening) so that the test waits for it instead of
// polling a file, and the server exits when its stdin closes.
//
//   node fake-responses.mjs SCRIPT.json LOG
//
// SCRIPT.json is a list of turns; each turn is either {"call": {NAME: ARGS}}
// (the model calls one function tool, e.g. {"call": {"exec_command": {"cmd":
// "ls", "login": false}}}) or {"say": "text"}. Requests beyond the script get
// a final "done" message. Every request is appended to LOG as one JSON line
// {"n", "method", "url", "body"}, the body as the text received.
import http from 'node:http';
import fs from 'node:fs';

const [script, logFile] = process.argv.slice(2);
const turns = JSON.parse(fs.readFileSync(script, 'utf8'));
let n = 0;

const srv = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url.endsWith('/responses')) {
      fs.appendFileSync(logFile, JSON.stringify({ n: 0, method: req.method, url: req.url, body }) + '\n');
      res.writeHead(404).end();
      return;
    }
    const turn = turns[n] ?? { say: 'done' };
    n++;
    fs.appendFileSync(logFile, JSON.stringify({ n, method: req.method, url: req.url, body }) + '\n');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const id = `resp_${n}`;
    let item;
    if (turn.call) {
      const [name, args] = Object.entries(turn.call)[0];
      item = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name, arguments: JSON.stringify(args), status: 'completed' };
    } else {
      item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.say, annotations: [] }] };
    }
    send('response.created', { response: { id, status: 'in_progress', output: [] } });
    send('response.output_item.done', { output_index: 0, item });
    send('response.completed', { response: { id, status: 'completed', output: [item],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } } });
    res.end();
  });
});
srv.listen(0, '127.0.0.1', () => process.stdout.write(`${srv.address().port}\n`));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
