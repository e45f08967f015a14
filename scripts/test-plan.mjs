/**
 * In what order `npm test` runs its suites, and which run side by side. A suite names its
 * `phase`; the suites of one phase run at the same time, the phases one after the other (in the
 * order their first suite is listed). Side by side only where it pays on a two-core machine and
 * where the suites share no output folder:
 *
 * - typecheck, lint and api-report: each mostly one single-threaded compiler, so two cores run
 *   two of them at once (api-report writes dist/, which the other two never read);
 * - e2e and conformance: the end-to-end run is one Playwright worker whose tests wait on pages
 *   and servers much of the time, and the conformance scenarios need only loopback ports of
 *   their own; npm pack (in e2e) and api-report both write dist/, so these never meet.
 *
 * In a phase, the suite marked `lead` (or the only one) streams its output as it comes; the others
 * keep theirs and print it as one block when they end, so no two suites' lines interleave.
 *
 * Only Node built-ins (none, here): this runs before node_modules exists.
 */

/**
 * The phases of a run, in order, for the suites selected (each `{ name, phase?, lead? }`; a suite
 * without a phase runs alone): `[{ suites, streamed }]`, where `streamed` is the suite whose
 * output goes out live, or undefined when every suite of the phase keeps its output.
 */
export function plan(suites) {
  const phases = [];
  for (const suite of suites) {
    const phase = suite.phase === undefined ? undefined : phases.find((p) => p.key === suite.phase);
    if (phase) phase.suites.push(suite);
    else phases.push({ key: suite.phase ?? Symbol(suite.name), suites: [suite] });
  }
  return phases.map(({ suites: members }) => ({
    suites: members,
    streamed: members.length === 1 ? members[0] : members.find((suite) => suite.lead),
  }));
}

/** A kept output as one block: a header line naming the suite, then its output as it came. */
export function outputBlock(name, output) {
  const text = output.endsWith('\n') || output === '' ? output : `${output}\n`;
  return `\n━━ ${name}: output\n${text}`;
}
