import { test, expect } from '../support/fixtures.ts';

// The API reference at /api/docs (Swagger UI) runs under a policy of its own
// (server/src/app.ts): it draws the operations without a single Content Security Policy report.

test('the API docs open with no CSP violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Berth API/ })).toBeVisible();
  // An operation opened: its parameters and example answer are drawn too (styles on elements).
  const health = page.locator('.opblock').first();
  await health.locator('.opblock-summary').click();
  await expect(health.getByRole('heading', { name: 'Responses' })).toBeVisible();
  expect(violations).toEqual([]);
});
