import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import dnsPacket from 'dns-packet';

/**
 * The public DNS a customer's own domain lives in, for tests: an authoritative UDP server on a
 * loopback port that answers TXT questions from `txt` (name → texts), A questions from `a`, NS questions from `ns` and NXDOMAIN for anything
 * else, built with dns-packet. Berth's proof lookup is pointed at it by DNS_RESOLVERS.
 */
export interface DnsWorld {
  /** `127.0.0.1:<port>`, as DNS_RESOLVERS takes it. */
  address: string;
  /** Publishes (or replaces) the TXT records at `name`. */
  setTxt(name: string, texts: string[]): void;
  /** Answers A questions for `name` with what `addresses` gives on each question (a rebinding name changes it). */
  setA(name: string, addresses: () => string[]): void;
  /** Delegates `name` to these name servers (NS answers). */
  setNs(name: string, servers: string[]): void;
  /** How many A questions `name` got. */
  aQuestions(name: string): number;
  /** How many questions it has answered. */
  questions(): number;
  close(): Promise<void>;
}

/** `unref`: the server does not keep the test's process alive (one shared by a whole file, never closed). */
export async function startDnsWorld(options: { unref?: boolean } = {}): Promise<DnsWorld> {
  const txt = new Map<string, string[]>();
  const a = new Map<string, () => string[]>();
  const ns = new Map<string, string[]>();
  const aAsked = new Map<string, number>();
  let asked = 0;
  let closed = false;
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    asked++;
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    const texts = question && question.type === 'TXT' ? txt.get(name) : undefined;
    const addresses = question && question.type === 'A' ? a.get(name)?.() : undefined;
    const servers = question && question.type === 'NS' ? ns.get(name) : undefined;
    if (addresses) aAsked.set(name, (aAsked.get(name) ?? 0) + 1);
    const known = txt.has(name) || a.has(name) || ns.has(name);
    const answer = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      // The low four bits are the answer's code: 3 is NXDOMAIN (no such name).
      flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | (known ? 0 : 3),
      questions: query.questions ?? [],
      answers: [
        ...(texts ?? []).map((text) => ({ type: 'TXT' as const, name: question?.name ?? '', ttl: 60, class: 'IN' as const, data: text })),
        ...(addresses ?? []).map((address) => ({
          type: 'A' as const,
          name: question?.name ?? '',
          ttl: 0,
          class: 'IN' as const,
          data: address,
        })),
        ...(servers ?? []).map((server) => ({
          type: 'NS' as const,
          name: question?.name ?? '',
          ttl: 60,
          class: 'IN' as const,
          data: server,
        })),
      ],
    });
    socket.send(answer, peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  if (options.unref) socket.unref();
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, texts) => void txt.set(name.toLowerCase(), texts),
    setA: (name, addresses) => void a.set(name.toLowerCase(), addresses),
    setNs: (name, servers) => void ns.set(name.toLowerCase(), servers),
    aQuestions: (name) => aAsked.get(name.toLowerCase()) ?? 0,
    questions: () => asked,
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise((resolve) => socket.close(() => resolve()));
    },
  };
}
