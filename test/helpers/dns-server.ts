// A real DNS server on loopback UDP (dns2), answering from a zone the test edits.
import dns2 from 'dns2';

const { Packet } = dns2;
type Zone = Map<string, { type: 'A' | 'CNAME' | 'TXT'; value: string }[]>;

export class LoopbackDns {
  readonly zone: Zone = new Map();
  private server!: ReturnType<typeof dns2.createServer>;
  address = '';

  async start(): Promise<this> {
    this.server = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const name = question!.name.toLowerCase();
        const records = (this.zone.get(name) ?? []).filter((r) => Packet.TYPE[r.type] === question!.type);
        if (!this.zone.has(name)) response.header.rcode = 3; // NXDOMAIN
        for (const r of records) {
          const base = { name, type: Packet.TYPE[r.type], class: Packet.CLASS.IN, ttl: 1 };
          const value =
            r.type === 'A'
              ? { address: r.value }
              : r.type === 'CNAME'
                ? { domain: r.value }
                : { data: r.value };
          // dns2's types want its Resource class; its encoder takes plain records (see its README).
          response.answers.push({ ...base, ...value } as never);
        }
        send(response);
      },
    });
    const listening = new Promise<void>((resolve) => this.server.on('listening', () => resolve()));
    await this.server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    await listening;
    const udp = (this.server.addresses() as { udp: { port: number } }).udp;
    this.address = `127.0.0.1:${udp.port}`;
    return this;
  }

  set(name: string, ...records: { type: 'A' | 'CNAME' | 'TXT'; value: string }[]): void {
    this.zone.set(name.toLowerCase(), records);
  }

  async stop(): Promise<void> {
    await this.server.close();
  }
}
