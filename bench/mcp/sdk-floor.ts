// The MCP SDK's own cost of one stateless tool call, with nothing of Sitewright in it: the SDK's
// web-standard handler (createMcpHandler, legacy stateless, as /api/mcp uses it) answering a
// `tools/call` of a tool that does nothing, in process (no HTTP, no database). It is the floor under
// any tool call served through the official SDK, to read next to the REST call's whole CPU.
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

export async function sdkFloorUs(calls = 3000): Promise<number> {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'floor', version: '1' });
      server.registerTool('noop', { description: 'Does nothing', inputSchema: z.object({ id: z.string() }) }, async () => ({ content: [{ type: 'text' as const, text: '{}' }] }));
      return server;
    },
    { legacy: 'stateless' },
  );
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'noop', arguments: { id: 'x' } } };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  const once = async () => (await handler.fetch(new Request('http://bench.test/api/mcp', { method: 'POST', headers }), { parsedBody: body })).text();
  for (let i = 0; i < 500; i++) await once();
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await once();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}
