import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { freePort } from './free-port.js';

/**
 * What OAuth costs an MCP call: `tools/list` over real HTTP with an API key and with an OAuth access token (the
 * token's lookup is three indexed reads: token, grant, client; a key's is one), and one refresh-token rotation. The
 * token comes from the whole flow, driven over HTTP as a browser would (sign-in form, consent form), on SQLite.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-mcp-'));
// The issuer must be the address clients use: the port is chosen before the app is built.
const port = await freePort();
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', BASE_URL: `http://127.0.0.1:${port}`, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
const { app, core } = await buildApp(config);
await app.listen({ port, host: '127.0.0.1' });
const base = config.baseUrl;
const user = await core.accounts.createAccount({ email: 'mcp-bench@example.com', tier: 'enterprise' });
await core.sessions.setPasswordAsOperator(user.email, 'a long enough password');

const jar = new Map<string, string>();
const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
async function browse(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() } });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const [name, value] = pair!.split('=');
    jar.set(name!, value ?? '');
  }
  return res;
}
const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

const callback = 'http://127.0.0.1:9/callback';
const registered = (await (
  await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'bench', redirect_uris: [callback], token_endpoint_auth_method: 'none' }) })
).json()) as { client_id: string };
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');
const authorize = new URL(`${base}/oauth/authorize`);
for (const [name, value] of Object.entries({ response_type: 'code', client_id: registered.client_id, redirect_uri: callback, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })) authorize.searchParams.set(name, value);
let location = (await browse(authorize.href)).headers.get('location')!;
const interaction = new URL(location, base).href;
await browse(`${interaction}/sign-in`, form({ email: user.email, password: 'a long enough password' }));
const consentPage = await (await browse(interaction)).text();
const csrf = /name="csrf" value="([^"]+)"/.exec(consentPage)![1]!;
location = (await browse(`${interaction}/consent`, form({ csrf, decision: 'allow' }))).headers.get('location')!;
while (!location.startsWith(callback)) location = (await browse(new URL(location, base).href)).headers.get('location')!;
const code = new URL(location).searchParams.get('code')!;
const tokenAnswer = async (fields: Record<string, string>) => (await (await fetch(`${base}/oauth/token`, form(fields))).json()) as { access_token: string; refresh_token: string };
let tokens = await tokenAnswer({ grant_type: 'authorization_code', client_id: registered.client_id, code, code_verifier: verifier, redirect_uri: callback });

const listTools = (bearer: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  }).then(async (res) => {
    if (res.status !== 200) throw new Error(`tools/list answered ${res.status}`);
    await res.arrayBuffer();
  });

async function measure(label: string, bearer: string): Promise<void> {
  for (let i = 0; i < 50; i++) await listTools(bearer);
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await listTools(bearer);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const started = performance.now();
  let done = 0;
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (done < 2000) {
      done += 1;
      await listTools(bearer);
    }
  }));
  const perSecond = 2000 / ((performance.now() - started) / 1000);
  console.log(`MCP tools/list with ${label}: median ${times[150]!.toFixed(2)} ms, p99 ${times[297]!.toFixed(2)} ms sequential; ${perSecond.toFixed(0)} req/s at 10 concurrent`);
}

await measure('an API key', user.apiKey);
await measure('an OAuth access token', tokens.access_token);
const refreshes: number[] = [];
for (let i = 0; i < 50; i++) {
  const started = performance.now();
  tokens = await tokenAnswer({ grant_type: 'refresh_token', client_id: registered.client_id, refresh_token: tokens.refresh_token });
  refreshes.push(performance.now() - started);
  if (!tokens.refresh_token) throw new Error('refresh failed');
}
refreshes.sort((a, b) => a - b);
console.log(`OAuth refresh-token rotation: median ${refreshes[25]!.toFixed(1)} ms, worst ${refreshes[49]!.toFixed(1)} ms`);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
