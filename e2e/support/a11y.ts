import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** WCAG 2.1 A and AA, and axe's best practices (landmarks, one h1, …). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Runs axe on the page as it is and answers its serious and critical violations, one readable
 * line per element: where, what is wrong, and axe's own summary of how to fix it.
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${where} [${v.impact}] ${v.id}: ${v.help}\n    at ${node.target.join(' ')}\n    ${node.html.slice(0, 160)}\n    ${(
            node.failureSummary ?? ''
          ).replace(/\n\s*/g, ' | ')}`,
      ),
    );
}

/** In the page: its shown headings (an aria-hidden one is not read out), with their levels. */
const HEADINGS = `[...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
  .filter((e) => e.checkVisibility() && !e.closest('[aria-hidden="true"]'))
  .map((e) => ({
    level: /^H\\d$/.test(e.tagName) ? Number(e.tagName[1]) : Number(e.getAttribute('aria-level') ?? 2),
    text: (e.textContent ?? '').trim().slice(0, 60),
  }))`;

/**
 * Headings in order: the page's first heading is its one h1, and no heading goes more than one
 * level deeper than the one before it (h1 then h3 skips a level). Answers what is wrong.
 */
export async function headingProblems(page: Page, where: string): Promise<string[]> {
  const headings = await page.evaluate<{ level: number; text: string }[]>(HEADINGS);
  const problems: string[] = [];
  const h1s = headings.filter((h) => h.level === 1);
  if (h1s.length !== 1) problems.push(`${where}: ${h1s.length} h1 headings (${h1s.map((h) => h.text).join(', ')})`);
  if (headings[0] && headings[0].level !== 1) problems.push(`${where}: the first heading is h${headings[0].level} "${headings[0].text}"`);
  headings.forEach((h, i) => {
    const before = headings[i - 1];
    if (before && h.level > before.level + 1)
      problems.push(`${where}: h${before.level} "${before.text}" is followed by h${h.level} "${h.text}"`);
  });
  return problems;
}
