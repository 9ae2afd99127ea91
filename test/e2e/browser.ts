import fs from 'node:fs';
import axe, { type AxeResults, type RunOptions } from 'axe-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium (apt-get install chromium); `.ci/run` installs it when missing. */
export const CHROMIUM = process.env.SNIP_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) console.warn(`SKIPPED: the dashboard's browser tests need Chromium at ${CHROMIUM} (apt-get install chromium)`);

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The flags keep Chromium from dialling Google's services, which this machine's closed network refuses.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export { BROWSER_UA } from '../helpers/user-agents.js';

/** Every page of the dashboard has exactly one h1 once it has loaded. */
export async function expectOneH1(page: Page, text?: string): Promise<void> {
  // Pages load as their own chunks: wait for the one asked for before counting.
  if (text) await page.locator('h1', { hasText: text }).waitFor();
  else await page.waitForLoadState('networkidle');
  const h1 = page.locator('h1');
  await h1.first().waitFor();
  expect(await h1.count()).toBe(1);
}

export async function signUp(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.waitForURL(/\/app\/sign-in$/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  // The sign-in form stays on screen while the sign-up page loads (a router transition): filled then, the email went
  // into the old form, and a loaded CI machine posted a sign-up without one (400 INVALID_EMAIL).
  await page.getByRole('button', { name: 'Sign up' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  // The answer is awaited and shown: on a loaded CI machine a sign-up once never reached /app/links within 30 s, and
  // the bare navigation timeout said nothing of why.
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-up') && r.request().method() === 'POST', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Sign up' }).click(),
  ]);
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  await page.waitForURL(/\/app\/links$/, { timeout: 60_000 });
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/app/sign-in`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\/links$/);
}

/** WCAG 2.1 A and AA, the level the dashboard holds to. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
type Violation = AxeResults['violations'][number];

/** Only the rules a change of colours can change the outcome of: enough for a page seen again in the other scheme. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe's findings on the page as it is now (an open dialog included), by every WCAG AA rule or by `rules` only. axe-core
 * goes into a page once per document rather than on every run as @axe-core/playwright sends it (a megabyte and a half,
 * twice a run, and a blank page opened to merge frames' results, which the dashboard has none of): seconds a run on a
 * busy machine, where a tour runs axe a hundred times.
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<Violation[]> {
  // Colours caught halfway through a transition (Mantine's SegmentedControl fades its labels for 200 ms after a change
  // of scheme, reduced motion or not) are colours nobody reads: axe sees the page once every finite one has ended.
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  const present = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!present) await page.evaluate(axe.source);
  const options: RunOptions = { runOnly: rules ? { type: 'rule', values: rules } : { type: 'tag', values: WCAG_AA } };
  const results = await page.evaluate((run) => (window as unknown as { axe: typeof axe }).axe.run(document, run), options);
  return results.violations;
}

/** One line per element: the rule, its impact, where, and axe's summary of what is wrong there. */
export function describeViolations(violations: Violation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${node.impact ?? v.impact}) at ${node.target.join(' ')}: ${(node.failureSummary ?? v.help).replace(/\s+/g, ' ').trim()}`),
  );
}

/** Critical and serious findings, each described; the state named in `label` (page, width, scheme) heads them. */
export async function seriousViolations(page: Page, label: string, rules?: string[]): Promise<string[]> {
  const violations = (await axeViolations(page, rules)).filter((v) => v.impact === 'critical' || v.impact === 'serious');
  return describeViolations(violations).map((line) => `${label}: ${line}`);
}

/** Fails, listing each finding, when axe finds anything critical or serious on the page as it is now. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page, label)).toEqual([]);
}
