import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { repoRoot } from '../support/server.ts';
import { HARBOR_HOST, ownUser } from '../support/shell-server.ts';

// The issue: every string in English, German and Czech; the language selector switches all of
// them without a reload and the choice is kept on the account.

type Tree = { [key: string]: string | Tree };
const load = (code: string): Tree => JSON.parse(readFileSync(path.join(repoRoot, `web/src/i18n/${code}.json`), 'utf8')) as Tree;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** English texts that must not be left on the page in `code`: those the other language words differently. */
function englishOnly(code: string): Set<string> {
  const en = flatten(load('en'));
  const other = flatten(load(code));
  const otherValues = new Set(other.values());
  const texts = new Set<string>();
  for (const [key, value] of en) {
    // Language names are written in their own language everywhere.
    if (key.startsWith('language.') && ['en', 'de', 'cs'].includes(key.slice(9))) continue;
    if (value.includes('{{') || value.length < 3 || otherValues.has(value)) continue;
    texts.add(value);
  }
  return texts;
}

/** Every text node and accessible-name attribute on the page, dialogs and portals included. */
async function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && node.parentElement?.closest('script, style') === null) texts.push(text);
    }
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

/** The page's texts with the menu, the profile dropdown and the domain selector open too. */
async function allShellTexts(page: Page, phone: boolean): Promise<string[]> {
  const texts = await pageTexts(page);
  const nav = await openMenu(page, phone);
  texts.push(...(await pageTexts(page)));
  await nav.getByTestId('domain-selector').click();
  await expect(page.getByRole('listbox')).toBeVisible();
  texts.push(...(await pageTexts(page)));
  await page.keyboard.press('Escape');
  if (phone) await page.keyboard.press('Escape');
  await page.getByTestId('profile-menu').click();
  await expect(page.getByRole('menu')).toBeVisible();
  texts.push(...(await pageTexts(page)));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  return texts;
}

async function switchTo(page: Page, code: 'de' | 'cs' | 'en') {
  await page.getByTestId('language-menu').click();
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/language') && response.request().method() === 'PATCH',
  );
  await page.getByTestId(`language-${code}`).click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toEqual({ language: code });
  await expect(page.locator('html')).toHaveAttribute('lang', code);
}

test('the language selector switches every string at once and the choice is kept', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  // A domain page: the breadcrumb and the domain menu have the most strings.
  await openAs(ownUser('lang', testInfo.project.name), '/dashboard', HARBOR_HOST);
  const nav = await openMenu(page, phone);
  await nav.getByTestId('domain-selector').click();
  await expect(page.getByRole('option')).toHaveCount(3);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => /\/host\/domain\/\d+\/edit$/.test(url.pathname));
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  const english = await allShellTexts(page, phone);
  expect(english).toContain('Home');

  await switchTo(page, 'de');
  await expect(page.getByTestId('shell-message')).toHaveText('Die Sprache wurde geändert.');
  const german = await allShellTexts(page, phone);
  expect(german).toEqual(expect.arrayContaining(['Startseite', 'Abmelden', 'Überblick']));
  expect(
    german.filter((text) => englishOnly('de').has(text)),
    'English left after switching to German',
  ).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere), 'no reload').toBe(true);

  // Kept on the account: a reload (and any other device) speaks German.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('navigation', { name: 'Pfadnavigation' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Abmelden' })).toBeVisible();

  await switchTo(page, 'cs');
  const czech = await allShellTexts(page, phone);
  expect(czech).toEqual(expect.arrayContaining(['Domů', 'Souhrn']));
  expect(
    czech.filter((text) => englishOnly('cs').has(text)),
    'English left after switching to Czech',
  ).toEqual([]);

  await switchTo(page, 'en');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible();
  // The Czech notice went with the switch: no message is left in an earlier language.
  await expect(page.getByTestId('shell-message')).toHaveText(['The language has been changed.']);
});
