import net from 'node:net';

/** A port the kernel has just handed out and given back, for a server whose BASE_URL must name its port up front. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
