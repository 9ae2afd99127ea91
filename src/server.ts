import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { runPrimary } from './runtime/workers.js';
import { ConfigError, loadConfig, operatorEnvironment } from './config.js';
import { describeRuntime } from './runtime/describe.js';
import { StartupError } from './runtime/startup-error.js';

/** Start-up failures an operator can fix print one sentence; anything else keeps its stack for a bug report. */
function failStart(error: unknown): never {
  const known = error instanceof ConfigError || error instanceof StartupError;
  const text = known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`Snip cannot start: ${text}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = loadConfig(operatorEnvironment());
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, pino({ level: config.logLevel }));
  // A stop can come while this process is still starting: systemd and a terminal signal the whole process group, a
  // worker the primary has just restarted included. Until the app is built a stop ends the process at once with 0,
  // rather than by the signal (which a primary counts as a failed worker): it has served nothing, and what a start
  // does survives being cut (a migration run is one transaction, a click journal being adopted is adopted again by the
  // next start), while a start can wait long for its database. The handlers are in place before the app's modules
  // load, which is most of a start.
  let onStop: (signal: NodeJS.Signals) => void = (signal) => {
    pino({ level: config.logLevel }).info({ signal }, 'stopped while starting');
    process.exit(0);
  };
  process.on('SIGTERM', () => onStop('SIGTERM'));
  process.on('SIGINT', () => onStop('SIGINT'));
  const { buildApp } = await import('./app.js');
  const { app } = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'draining in-flight requests');
    // close() only reaps connections idle at the moment it starts; keep-alive connections whose request finishes
    // during the drain would hold the process open until the client hangs up, so reap them as they go idle.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      // The server was listened on directly (below), so Fastify leaves closing it to us: stop accepting and wait for
      // the requests in flight, then close the app (drains clicks, closes the database).
      await new Promise<void>((resolve) => app.server.close(() => resolve()));
      await app.close();
      clearInterval(reaper);
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  onStop = (signal) => void shutdown(signal);
  // Listening on the bare server rather than app.listen(): Fastify logs one line per network interface, and the
  // operator gets one line that says everything instead.
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL'
          ? new StartupError(`cannot listen on ${config.host}:${config.port} (${error.code}): set PORT or HOST to an address this process may use`)
          : error,
      ),
    );
    app.server.listen({ port: config.port, host: config.host }, () => {
      app.server.removeAllListeners('error');
      resolve();
    });
  });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const runtime = describeRuntime(config, `http://${host}:${address.port}`);
  app.log.info(runtime, `Snip ${runtime.version} listening on ${runtime.listening}`);
  if (config.trustProxy === true) {
    // Every hop trusted: a visitor who sends X-Forwarded-For picks the address Snip sees (country blocks, statistics).
    app.log.warn(
      'TRUST_PROXY=true believes every X-Forwarded-For hop, so a client can choose its own address; set the number of proxies in front of Snip (TRUST_PROXY=1 behind one) or their addresses instead',
    );
  }
}

main().catch(failStart);
