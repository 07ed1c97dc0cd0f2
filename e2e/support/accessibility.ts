import { AxeBuilder } from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

export interface BlockingViolation {
  id: string;
  impact: string;
  help: string;
  /** Each offending element: its selector, its HTML and what axe says is wrong with it. */
  nodes: { target: string; html: string; summary: string }[];
}

export interface AxeScope {
  /** Check only this part of the page (a CSS selector), e.g. 'main' for an inner page of the shell. */
  include?: string;
}

/**
 * Runs axe on the page as it is now and returns the serious and critical violations, printed
 * and attached to the test so a failure says what to fix.
 */
export async function blockingAxeViolations(
  page: Page,
  testInfo: TestInfo,
  name: string,
  scope: AxeScope = {},
): Promise<BlockingViolation[]> {
  // axe.run on the page itself (AxeBuilder's legacy mode): the default runs axe per frame and then
  // opens a blank page to merge the frames' results, which doubled each check's time here (dns spec:
  // 2.4 s a check, 1.3 s in legacy mode) for frames the web app does not have. Legacy mode leaves
  // out only cross-origin frames (@axe-core/playwright's README).
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  if (scope.include) builder.include(scope.include);
  const results = await builder.analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      help: `${violation.help} (${violation.helpUrl})`,
      nodes: violation.nodes.map((node) => ({
        target: node.target.join(' '),
        html: node.html.slice(0, 300),
        summary: node.failureSummary ?? '',
      })),
    }));
  const minor = results.violations.filter((violation) => !BLOCKING_IMPACTS.has(violation.impact ?? ''));
  await testInfo.attach(`axe-${name}.json`, {
    body: JSON.stringify({ blocking, minor: minor.map((v) => ({ id: v.id, impact: v.impact, help: v.help })) }, null, 2),
    contentType: 'application/json',
  });
  if (blocking.length) console.log(`axe on ${name} (${testInfo.project.name}):\n${JSON.stringify(blocking, null, 2)}`);
  return blocking;
}
