// One reading of a page's accessibility for the specs: its serious and critical axe violations.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The serious and critical axe violations on the page, each as "id: help (where)". */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/**
 * No serious or critical violation on the page. A live page re-renders when its data moves, and a scan in that
 * moment once read a document without its title (CI, the desk after three plans arrived): when that is all a scan
 * found, the page is scanned again once its title is back. Any other violation fails the first scan, and a title
 * that stays missing fails too.
 */
export async function expectAxeClean(page: Page): Promise<void> {
  let found = await seriousViolations(page);
  for (let again = 0; again < 3 && found.length > 0 && found.every((v) => v.startsWith("document-title:")); again++) {
    await expect(page).toHaveTitle(/\S/);
    found = await seriousViolations(page);
  }
  expect(found).toEqual([]);
}
