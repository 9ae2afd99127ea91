import dns from 'node:dns';

export interface Address {
  address: string;
  family: number;
}

/**
 * DNS as a port. With DNS_RESOLVER (host:port) every question goes to that server, which is how tests and
 * operators with their own resolver point Snip elsewhere; without it, the system's resolver (and /etc/hosts).
 */
export interface Dns {
  /** Every address a host name resolves to (A and AAAA); empty when it has none. */
  addresses(hostname: string): Promise<Address[]>;
  /** The TXT records of a name, each joined into one string; empty when there are none. */
  txt(name: string): Promise<string[]>;
}

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NXDOMAIN', 'ESERVFAIL']);
const orEmpty = <T>(promise: Promise<T[]>): Promise<T[]> =>
  promise.catch((error: NodeJS.ErrnoException) => {
    if (error.code && NO_ANSWER.has(error.code)) return [];
    throw error;
  });

export function createDns(server: string | null): Dns {
  const resolver = new dns.promises.Resolver({ timeout: 5_000, tries: 2 });
  if (server) resolver.setServers([server]);
  return {
    async addresses(hostname) {
      if (!server) return orEmpty(dns.promises.lookup(hostname, { all: true, verbatim: true }));
      const [v4, v6] = await Promise.all([orEmpty(resolver.resolve4(hostname)), orEmpty(resolver.resolve6(hostname))]);
      return [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
    },
    async txt(name) {
      return (await orEmpty(resolver.resolveTxt(name))).map((parts) => parts.join(''));
    },
  };
}
