import fs from 'node:fs';
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
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/app\/links$/);
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/app/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\/links$/);
}
