import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 response codes (dns2 has Packet.RCODE at run time, but its type declarations lack it). */
const RCODE = { FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3 } as const;
/** A TXT character-string holds at most 255 bytes; longer values are sent as several strings of one record. */
const MAX_STRING = 255;

/** One question the server was asked. */
export interface TxtQuestion {
  name: string;
  type: 'TXT' | 'other';
}

/**
 * One TXT record: a string (sent as one character-string, or split into 255-byte pieces when longer), or the
 * character-strings of one record given one by one (a resolver joins them into one value).
 */
export type TxtValue = string | string[];

/**
 * A real DNS server (UDP) on 127.0.0.1 that answers TXT questions for the names a test gives it; point Snip at it
 * with DNS_RESOLVER=<resolver>. A name it knows answers its TXT records (TTL 0, so no resolver keeps an answer
 * between questions) and an empty answer to other types; a name it does not know is NXDOMAIN; a name marked
 * failing answers SERVFAIL.
 */
export interface TxtServer {
  /** `127.0.0.1:<port>`, the value for DNS_RESOLVER. */
  resolver: string;
  /** Every question asked so far. */
  questions: TxtQuestion[];
  /** Sets (or replaces) the TXT records of `name`: what the next question about it is answered. `[]`: no records. */
  set(name: string, values: TxtValue[]): void;
  /** Forgets `name`: questions about it are NXDOMAIN again. */
  remove(name: string): void;
  /** Questions about `name` answer SERVFAIL until it is `set` or `remove`d. */
  fail(name: string): void;
  /** Answers about `name` are sent `ms` milliseconds late (0: at once again), whatever they are. */
  delay(name: string, ms: number): void;
  /** The questions asked about `name`. */
  asked(name: string): TxtQuestion[];
  close(): Promise<void>;
}

const normalise = (name: string): string => name.toLowerCase().replace(/\.$/, '');

function characterStrings(value: TxtValue): Buffer[] {
  if (Array.isArray(value)) return value.map((part) => Buffer.from(part, 'utf8'));
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += MAX_STRING) parts.push(bytes.subarray(i, i + MAX_STRING));
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}

export async function startTxtServer(records: Record<string, TxtValue[]> = {}): Promise<TxtServer> {
  const zone = new Map<string, TxtValue[] | 'servfail'>(Object.entries(records).map(([name, values]) => [normalise(name), values]));
  const questions: TxtQuestion[] = [];
  const delays = new Map<string, number>();
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
      const name = normalise(question.name);
      const type = question.type === Packet.TYPE.TXT ? 'TXT' : 'other';
      questions.push({ name, type });
      const entry = zone.get(name);
      if (entry === undefined) {
        response.header.rcode = RCODE.NXDOMAIN;
      } else if (entry === 'servfail') {
        response.header.rcode = RCODE.SERVFAIL;
      } else if (type === 'TXT') {
        for (const value of entry) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 0,
            data: characterStrings(value),
          } as unknown as Parameters<typeof response.answers.push>[0]);
        }
      }
      const late = delays.get(name) ?? 0;
      if (late > 0) setTimeout(() => void send(response), late);
      else void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('the DNS server did not report its port');
  return {
    resolver: `127.0.0.1:${port}`,
    questions,
    set: (name, values) => void zone.set(normalise(name), values),
    remove: (name) => void zone.delete(normalise(name)),
    fail: (name) => void zone.set(normalise(name), 'servfail'),
    delay: (name, ms) => void delays.set(normalise(name), ms),
    asked: (name) => questions.filter((q) => q.name === normalise(name)),
    close: async () => {
      await server.close();
    },
  };
}
