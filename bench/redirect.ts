import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/**
 * Redirect throughput of a stored Snip link against a bare Fastify route answering the same 302, each server in
 * its own process and autocannon in this one. Target: Snip reaches at least 0.7 of the bare route.
 */
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function startServer(script: string): Promise<{ child: ChildProcess; port: number; code: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const info = JSON.parse(line) as { port: number; code?: string };
  return { child, port: info.port, code: info.code ?? 'bench1' };
}

async function measure(name: string, script: string): Promise<number> {
  const server = await startServer(script);
  const url = `http://127.0.0.1:${server.port}/${server.code}`;
  try {
    await autocannon({ url, connections, duration: 2 }); // warm-up: JIT, caches
    const result = await autocannon({ url, connections, duration });
    const non3xx = result.non2xx - (result.statusCodeStats?.["302"]?.count ?? 0);
    if (result.errors > 0 || non3xx > 0) throw new Error(`${name}: ${result.errors} errors, ${non3xx} non-302 answers`);
    const rps = result.requests.average;
    console.log(`${name.padEnd(26)} ${rps.toFixed(0).padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
    return rps;
  } finally {
    server.child.kill('SIGTERM');
  }
}

console.log(`redirect benchmark: ${connections} connections, ${duration}s per run, Node ${process.version}`);
const bare = await measure('bare Fastify 302', 'bench/servers/bare.ts');
const snip = await measure('Snip redirect (SQLite)', 'bench/servers/snip.ts');
const ratio = snip / bare;
console.log(`ratio Snip / bare: ${ratio.toFixed(2)} (target >= 0.70) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`);
