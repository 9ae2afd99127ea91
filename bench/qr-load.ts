import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

// The server runs as shipped (dist/): build it first when src/ changed.
spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--server-only'], { stdio: 'inherit' });

/**
 * Redirect latency while someone asks for uncached 1000-pixel QR codes, the most expensive thing Snip does without
 * a key. Three runs of the same redirect load: alone; with a QR flood from one address (the per-address budget,
 * PUBLIC_REQUESTS_PER_MINUTE, refuses most of it); and with the budget off, as a flood from many addresses would be.
 * The server believes one proxy hop (TRUST_PROXY=1), so visitors and the attacker are told apart by X-Forwarded-For.
 */
const duration = Number(process.env.BENCH_DURATION ?? 6);

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; code: string }> {
  const child = spawn(process.execPath, ['bench/servers/snip.mjs'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const info = JSON.parse(line) as { port: number; code: string };
  return { child, port: info.port, code: info.code };
}

let visitor = 0;
const redirects = (port: number, code: string) =>
  autocannon({
    url: `http://127.0.0.1:${port}/${code}`,
    connections: 10,
    duration,
    // Each request from another visitor, so no visitor's budget is ever in play.
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `203.0.${(visitor >> 8) & 255}.${visitor++ & 255}` } }) }],
  });

let drawn = 0;
const qrFlood = (port: number, code: string) =>
  autocannon({
    url: `http://127.0.0.1:${port}/api/qr/${code}`,
    connections: 20,
    duration,
    // A size and colour never drawn before: no request is served from the image cache.
    requests: [
      {
        setupRequest: (req) => {
          drawn += 1;
          const color = (drawn % 0xffffff).toString(16).padStart(6, '0');
          return { ...req, path: `/api/qr/${code}?size=${900 + (drawn % 100)}&color=${color}`, headers: { ...req.headers, 'x-forwarded-for': '198.51.100.66' } };
        },
      },
    ],
  });

async function scenario(name: string, env: Record<string, string>, flood: boolean): Promise<void> {
  const server = await startServer({ TRUST_PROXY: '1', ...env });
  try {
    await autocannon({ url: `http://127.0.0.1:${server.port}/${server.code}`, connections: 10, duration: 2 }); // warm-up
    const [visits, attack] = await Promise.all([redirects(server.port, server.code), flood ? qrFlood(server.port, server.code) : Promise.resolve(null)]);
    const qr = attack ? `   QR flood: ${attack.requests.average.toFixed(0)} req/s answered, ${attack.statusCodeStats?.['200']?.count ?? 0} drawn, ${attack.statusCodeStats?.['429']?.count ?? 0} refused (429)` : '';
    console.log(`${name.padEnd(44)} redirects ${visits.requests.average.toFixed(0).padStart(6)} req/s   p50 ${visits.latency.p50} ms   p99 ${visits.latency.p99} ms${qr}`);
  } finally {
    server.child.kill('SIGTERM');
  }
}

console.log(`redirect latency under a QR flood: 10 visitor connections, 20 attacker connections, ${duration}s per run, Node ${process.version}`);
await scenario('redirects alone', {}, false);
await scenario('+ QR flood from one address (default budget)', {}, true);
await scenario('+ QR flood, budget off (many addresses)', { PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' }, true);
