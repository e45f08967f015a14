/**
 * The failed tests of a run, from the JSON reports of vitest and Playwright, one line each
 * ("file › test: first line of the error"). `npm test` prints them under its summary table,
 * because a CI log is often read from its end only.
 */

/** The first line of a failure message, without colour codes, short enough for a summary line. */
function firstLine(message) {
  // eslint-disable-next-line no-control-regex
  const line = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((text) => text.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line.trim();
}

/**
 * The failed tests of a vitest JSON report, as "file › test: first line of the error". The
 * summary repeats them because CI logs are often read from the end.
 */
export function vitestFailures(report, root = '') {
  const names = [];
  for (const file of report.testResults ?? []) {
    const where = file.name ? (root ? file.name.replace(`${root}/`, '') : file.name) : '?';
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) names.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) names.push(`${where}: ${firstLine(file.message) || 'failed with no test failing'}`);
  }
  return names;
}

/** The failed (or flaky) tests of a Playwright JSON report, as "file › title: first line of the error". */
export function playwrightFailures(report) {
  const names = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'expected' || test.status === 'skipped') continue;
        const error = (test.results ?? []).map((result) => result.error?.message).find(Boolean);
        names.push(`${spec.file ?? file ?? '?'} › ${spec.title} (${test.status}): ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return names;
}

