// The visitors of bench/under-load.ts, in a thread of their own: the bench's main thread also reads four exports of
// megabytes and serves the fake Shlink the import reads, and a visitor sharing its event loop would time that work
// as the server's. Follows one short link back to back on VISITORS connections until told to stop; posts each
// answer's time in ms.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { port, code, visitors, userAgent } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: visitors });
let stopping = false;
parentPort.on('message', (message) => {
  if (message === 'stop') stopping = true;
});

function get() {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: `/${code}`, headers: { 'user-agent': userAgent }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const times = [];
try {
  await Promise.all(
    Array.from({ length: visitors }, async () => {
      while (!stopping) {
        const started = performance.now();
        const status = await get();
        times.push(performance.now() - started);
        if (status !== 302) throw new Error(`a redirect answered ${status}`);
      }
    }),
  );
  parentPort.postMessage({ times });
} catch (error) {
  parentPort.postMessage({ error: String(error) });
} finally {
  agent.destroy();
}
