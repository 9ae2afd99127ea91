import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { COLOUR_RULES, seriousViolations } from './browser.js';

/** The desktop width the dashboard's axe tours use; the phone's is `PHONE` in browser.ts. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** A page in a context of its own, in the light scheme, without animations (the theme respects reduced motion): dialogs open at once. */
export async function openPage(browser: Browser, options: BrowserContextOptions): Promise<Page> {
  return (await browser.newContext({ ...options, colorScheme: 'light', reducedMotion: 'reduce' })).newPage();
}

/** The scheme the dashboard shows now, as Mantine sets it on the root element. */
export function scheme(page: Page): Promise<string | null> {
  return page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
}

/** Switches the system's scheme and waits until the dashboard follows it. */
export async function setScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
  await expect.poll(() => scheme(page)).toBe(colorScheme);
}

/**
 * Runs axe on the page as it is, in its current scheme and then in the other (the dashboard follows the system's
 * scheme live; there only the colour rules can find anything new), adding findings to `found`. Leaves the page in
 * the other scheme: the next state starts there, so each scheme gets the full run on every other state.
 */
export async function check(page: Page, state: string, found: string[]): Promise<void> {
  const first = (await scheme(page)) === 'dark' ? 'dark' : 'light';
  const second = first === 'dark' ? 'light' : 'dark';
  // Landmarks: axe's region rule is a best practice (moderate), so the one main landmark is counted here.
  const mains = await page.getByRole('main').count();
  if (mains !== 1) found.push(`${state}: ${mains} main landmarks, not 1`);
  found.push(...(await seriousViolations(page, `${state}, ${first}`)));
  await setScheme(page, second);
  found.push(...(await seriousViolations(page, `${state}, ${second}`, COLOUR_RULES)));
}

/** A dashboard page (`path` under /app), loaded: its h1 shown and no request outstanding. */
export async function visit(page: Page, base: string, path: string): Promise<void> {
  await page.goto(`${base}/app${path}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}
