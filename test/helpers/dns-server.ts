import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 response codes (dns2 has Packet.RCODE at run time, but its type declarations lack it). */
const RCODE = { FORMERR: 1, NXDOMAIN: 3 } as const;

/** One question the server was asked. */
export interface DnsQuestion {
  name: string;
  type: 'A' | 'AAAA' | 'other';
}

/**
 * A real DNS server (UDP) on 127.0.0.1 for the names a test gives it; point Snip at it with
 * DNS_RESOLVER=<resolver>. A name answers its IPv4 addresses to A questions and its IPv6 addresses to AAAA
 * questions (an empty answer when it has none of that family), with TTL 0 so that no resolver keeps an answer
 * between questions; names it does not know are NXDOMAIN.
 */
export interface DnsServer {
  /** `127.0.0.1:<port>`, the value for DNS_RESOLVER. */
  resolver: string;
  /** Every question asked so far. */
  questions: DnsQuestion[];
  /** Sets (or replaces) the addresses of `name`: what the next question about it is answered. */
  set(name: string, addresses: string[]): void;
  /** The questions asked about `name`. */
  asked(name: string): DnsQuestion[];
  close(): Promise<void>;
}

export async function startDnsServer(records: Record<string, string[]> = {}): Promise<DnsServer> {
  const zone = new Map<string, string[]>(Object.entries(records).map(([name, addresses]) => [name.toLowerCase(), addresses]));
  const questions: DnsQuestion[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) {
        response.header.rcode = RCODE.FORMERR;
        void send(response);
        return;
      }
      const name = question.name.toLowerCase();
      const type = question.type === Packet.TYPE.A ? 'A' : question.type === Packet.TYPE.AAAA ? 'AAAA' : 'other';
      questions.push({ name, type });
      const addresses = zone.get(name);
      if (!addresses) {
        response.header.rcode = RCODE.NXDOMAIN;
      } else {
        for (const address of addresses) {
          const v6 = address.includes(':');
          if ((type === 'A' && !v6) || (type === 'AAAA' && v6)) {
            response.answers.push({ name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 0, address } as Parameters<typeof response.answers.push>[0]);
          }
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('the DNS server did not report its port');
  return {
    resolver: `127.0.0.1:${port}`,
    questions,
    set: (name, list) => void zone.set(name.toLowerCase(), list),
    asked: (name) => questions.filter((q) => q.name === name.toLowerCase()),
    close: async () => {
      await server.close();
    },
  };
}
