// One MCP server instance per HTTP request (the SDK's createMcpHandler asks this factory), bound
// to the request's caller: nothing is kept between requests, so any instance of Sitewright answers
// any request. Every tool is listed to anyone (the handshake and tools/list need no token); the
// HTTP gate (plugin.ts) lets a tool call through only with a token allowed to make it.
import { McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import { DomainError } from '../modules/common/errors.ts';
import type { Services } from '../modules/index.ts';
import { runScoped, TOOL_BY_NAME, TOOLS, type McpCaller } from './tools.ts';

export const SERVER_INFO = { name: 'sitewright', title: 'Sitewright', version: '0.1.0' };

export function callerOf(authInfo: AuthInfo | undefined): McpCaller | undefined {
  return authInfo?.extra?.caller as McpCaller | undefined;
}

/**
 * Each tool's output schema as JSON Schema, converted once per process (the SDK converts it again
 * for every new server otherwise, and a stateless server is new for every request).
 */
const outputSchemaJson = new Map<string, unknown>();

/**
 * The server for one request. `only` names the tools a tools/call request calls: a server that
 * answers one call needs that tool alone, so the other tools' schemas are not set up for nothing.
 */
export function createMcpServer(services: Services, authInfo: AuthInfo | undefined, only?: readonly string[]): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Sitewright builds, hosts and measures websites for an agency’s clients. Typical flow: list_clients or create_client, create_project for the client, generate_site with a prompt, poll get_generation until it succeeded, get_preview_link to show it, publish_project to put it live. create_build_link hands a person a link that does all of this for them.',
  });
  const caller = callerOf(authInfo);
  // A call of a tool that does not exist gets the SDK's own answer ("Tool x not found"): that
  // needs the tools to be there.
  const wanted = only?.every((name) => TOOL_BY_NAME.has(name)) ? only : undefined;
  for (const tool of TOOLS) {
    if (wanted && !wanted.includes(tool.name)) continue;
    const registered = server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: { title: tool.title, ...tool.annotations } },
      async (args: Record<string, unknown>) => {
        if (!caller) return failure('Authentication required: send an API key (wk_...) as a Bearer token');
        try {
          const result = await runScoped(tool, services, caller, args ?? {});
          return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
        } catch (error) {
          // A refusal of the service (not found, invalid, not allowed, limits) is the tool's answer.
          if (error instanceof DomainError) return failure(error.message);
          throw error;
        }
      },
    );
    const json = outputSchemaJson.get(tool.name);
    if (json) registered.outputSchemaJson = json as typeof registered.outputSchemaJson;
    else outputSchemaJson.set(tool.name, registered.outputSchemaJson);
  }
  return server;
}

function failure(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}
