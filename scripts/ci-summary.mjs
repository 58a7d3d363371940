// Adds up vitest JSON reports and prints the closing line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`missing report ${file}: counted as a failure`);
    failed++;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  // A suite that failed outside its tests (it did not load, its beforeAll threw: its tests show as
  // skipped) has no failed test to count, but must not pass silently.
  failed += (r.testResults ?? []).filter(
    (t) => t.status === 'failed' && !(t.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
}
if (passed + failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
