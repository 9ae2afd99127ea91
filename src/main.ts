import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
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
      await app.close(); // stops accepting, waits for in-flight requests, then drains clicks and closes the database
      clearInterval(reaper);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`Snip failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
