// Regenerates testdata/oracle.json: node testdata/oracle.mjs > testdata/oracle.json
// For every pattern of cases.json, whether `new RegExp(pattern)` throws and,
// if not, which strings RegExp.prototype.test accepts ("1") or not ("0").
import fs from 'fs';
const c = JSON.parse(fs.readFileSync(new URL('./cases.json', import.meta.url)));
const out = {strings: c.strings, results: []};
for (const p of c.patterns) {
  let re;
  try { re = new RegExp(p); } catch (e) { out.results.push({pattern: p, syntaxError: true}); continue; }
  out.results.push({pattern: p, matches: c.strings.map(s => re.test(s) ? "1" : "0").join("")});
}
console.log(JSON.stringify(out, null, 1));
