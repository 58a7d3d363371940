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
  for (const t of r.testResults ?? []) {
    for (const a of t.assertionResults ?? []) {
      if (a.status !== 'failed') continue;
      const why = String(a.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      failures.push(`${relative(process.cwd(), t.name)}: ${a.fullName ?? a.title}${why ? ` (${why})` : ''}`);
    }
    if (t.status === 'failed' && !(t.assertionResults ?? []).some((a) => a.status === 'failed')) {
      failures.push(
        `${relative(process.cwd(), t.name)}: failed outside its tests (${String(t.message ?? '')
          .split('\n')[0]
          .slice(0, 300)})`,
      );
    }
  }
  // A suite that failed outside its tests (it did not load, its beforeAll threw: its tests show as
  // skipped) has no failed test to count, but must not pass silently.
  failed += (r.testResults ?? []).filter(
    (t) => t.status === 'failed' && !(t.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
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
