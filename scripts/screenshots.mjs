// Screenshots of the dashboard for the README (docs/screenshots/): `node scripts/screenshots.mjs` after a build.
// Starts the shipped server (node dist/main.js) on a temporary DATA_DIR, fills a Pro account with a few links and
// clicks, and photographs the main pages in Debian's Chromium, on a desktop and on a 390 px phone (light and dark). Run by hand.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs', 'screenshots');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-shots-'));
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://sn.ip`, LOG_LEVEL: 'warn', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' };
const server = spawn(process.execPath, ['dist/main.js'], { cwd: root, env, stdio: 'inherit' });
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    if (i > 100) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  const email = 'maria@example.com';
  const password = 'correct horse battery';
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await desktop.newPage();
  await page.goto(`${base}/app/sign-in`);
  await page.getByLabel('Email').waitFor();
  await page.screenshot({ path: path.join(out, 'sign-in-desktop.png') });
  await page.goto(`${base}/app/sign-up`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/app\/links$/);
  spawnSync(process.execPath, ['dist/cli/main.js', 'users', 'set-tier', '--email', email, '--tier', 'pro'], { cwd: root, env });

  // Links and clicks through the same API the dashboard calls, with the page's session.
  const call = (p, method, body) =>
    page.evaluate(
      async ([p2, m, b]) => {
        const session = await (await fetch('/api/auth/session')).json();
        const res = await fetch(p2, { method: m, headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken }, body: b ? JSON.stringify(b) : undefined });
        return res.json();
      },
      [p, method, body],
    );
  const folder = await call('/api/folders', 'POST', { name: 'Spring launch', color: '#4c6ef5' });
  await call('/api/folders', 'POST', { name: 'Newsletter', color: '#12b886' });
  const destinations = ['https://example.com/spring/landing-page?ref=hero', 'https://docs.example.org/guides/getting-started', 'https://shop.example.com/products/42-blue-kettle', 'https://example.com/newsletter/2026-11'];
  const links = [];
  for (const url of destinations) links.push(await call('/api/links', 'POST', { url }));
  await call(`/api/link/${links[0].shortCode}/folder`, 'POST', { folderId: folder.id });
  await call(`/api/links/${links[0].shortCode}/tags`, 'POST', { tag: 'launch' });
  for (const [i, link] of links.entries()) {
    for (let n = 0; n < 12 - i * 3; n++) {
      await fetch(`${base}/${link.shortCode}`, { redirect: 'manual', headers: { 'user-agent': n % 3 ? DESKTOP_UA : UA, referer: n % 2 ? 'https://news.example.net/' : '' } });
    }
  }
  await new Promise((r) => setTimeout(r, 1500));

  const shoot = async (target, urlPath, name, wait) => {
    await target.goto(`${base}/app/${urlPath}`);
    await target.getByRole('heading', { level: 1, name: wait }).waitFor();
    await target.waitForLoadState('networkidle');
    await target.waitForTimeout(400);
    await target.screenshot({ path: path.join(out, name), fullPage: true });
  };
  await shoot(page, 'links', 'links-desktop.png', 'Links');
  await shoot(page, `links/${links[0].shortCode}`, 'link-desktop.png', links[0].shortCode);
  await shoot(page, 'account', 'account-desktop.png', 'Plan & account');
  await call('/api/user/domains', 'POST', { domain: 'go.example.com' });
  await shoot(page, 'domains', 'domains-desktop.png', 'Domains');
  // The first account of the server is its operator's: the Admin page.
  await shoot(page, 'admin', 'admin-desktop.png', 'Admin');
  // Import, from a file or from another shortener.
  await shoot(page, 'import', 'import-desktop.png', 'Bulk import');

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, storageState: await desktop.storageState() });
  const phonePage = await phone.newPage();
  await shoot(phonePage, 'links', 'links-phone.png', 'Links');
  await shoot(phonePage, `links/${links[0].shortCode}`, 'link-phone.png', links[0].shortCode);
  const dark = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme: 'dark', storageState: await desktop.storageState() });
  await shoot(await dark.newPage(), 'links', 'links-phone-dark.png', 'Links');
  console.log(`screenshots written to ${path.relative(root, out)}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
