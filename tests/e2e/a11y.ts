/**
 * axe-core (WCAG 2.1 A and AA rules) run in the page as it stands, and the 360 px check: the
 * screens a test has opened must have no serious or critical violation and no sideways scroll.
 * axe is evaluated through the DevTools protocol, so the app's CSP (script-src 'self') stays on.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (): Promise<Violation[]> => {
    type AxeResult = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')) }));
  });
  expect(violations, `axe-core on ${screen}`).toEqual([]);
}

/** The page fits a 360 px wide phone: nothing to scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, screen: string): Promise<void> {
  const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(widths.content, `sideways scroll on ${screen}`).toBeLessThanOrEqual(widths.view);
}
