import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/**
 * Redirect throughput of a stored Snip link against a bare Fastify route answering the same 302, each server in
 * its own process and autocannon in this one. Target: Snip reaches at least 0.7 of the bare route.
 */
const duration = Number(process.env.BENCH_DURATION ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * On a machine with two or more CPUs the load generator and the server get one CPU each (taskset), so the
 * operating system's placement does not decide the figure.
 */
const pinned = os.availableParallelism() >= 2 && spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]).status === 0;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function startServer(script: string): Promise<{ child: ChildProcess; port: number; code: string }> {
  const args = ['--import', 'tsx', script];
  const child = pinned
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
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

console.log(`redirect benchmark: ${connections} connections,${pinned ? ' client on CPU 0, server on CPU 1,' : ''} ${rounds} rounds of ${duration}s per server, Node ${process.version}`);
// Rounds alternate the two servers, so drift in a shared machine's speed falls on both alike; the median round
// is the figure.
const ratios: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const bare = await measure(`bare Fastify 302 #${round}`, 'bench/servers/bare.ts');
  const snip = await measure(`Snip redirect (SQLite) #${round}`, 'bench/servers/snip.ts');
  ratios.push(snip / bare);
}
const ratio = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
console.log(`ratio Snip / bare per round: ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
console.log(`median ratio Snip / bare: ${ratio.toFixed(2)} (target >= 0.70) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`);
