// Adds up vitest JSON reports and prints the closing line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
// What failed, by file and test, printed just above the closing line: CI keeps only the end of
// the output, and a flaky failure far up a long log is otherwise lost.
const failures = [];
// Each argument is a report, optionally with the exit code of the step that wrote it (`file:code`),
// or `file:optional` for a report a step writes only when it runs that part.
for (const arg of process.argv.slice(2)) {
  const match = /^(.*):(\d+|optional)$/.exec(arg);
  const file = match ? match[1] : arg;
  const optional = match?.[2] === 'optional';
  const code = match && !optional ? Number(match[2]) : 0;
  if (!existsSync(file)) {
    if (optional) continue;
    console.log(`missing report ${file}: counted as a failure`);
    failed++;
    continue;
  }
  let r;
  try {
    r = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    console.log(`unreadable report ${file} (${err instanceof Error ? err.message : String(err)}): counted as a failure`);
    failed++;
    continue;
  }
  // A step that could not run here says why in its report (test:compose without a container engine).
  if (typeof r.skipped === 'string') console.log(`${file}: skipped: ${r.skipped}`);
  passed += r.numPassedTests ?? 0;
  const before = failed;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  // The first line of a failure's message, for the list above the closing line.
  const firstLine = (text) =>
    String(text ?? '')
      .split('\n')[0]
      .slice(0, 300);
  for (const t of r.testResults ?? []) {
    const file = relative(process.cwd(), t.name);
    const failedTests = (t.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedTests) {
      const why = firstLine(a.failureMessages?.[0]);
      failures.push(`${file}: ${a.fullName ?? a.title}${why ? ` (${why})` : ''}`);
    }
    // A suite that failed outside its tests (it did not load, its beforeAll threw: its tests show
    // as skipped) has no failed test to count, but must not pass silently.
    if (t.status === 'failed' && failedTests.length === 0) {
      failed++;
      failures.push(`${file}: failed outside its tests (${firstLine(t.message)})`);
    }
  }
  // A step that failed after its tests passed (the bundle budget after the browser journeys).
  if (code !== 0 && failed === before) {
    console.log(`${file}: its step exited ${code} with no failed test: counted as a failure`);
    failed++;
  }
}
if (passed + failed === 0) failed = 1;
if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
