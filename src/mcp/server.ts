// One MCP server instance per HTTP request (the SDK's createMcpHandler asks this factory). A tool
// reads its caller from the request it answers (the SDK hands each handler the request's
// authInfo): nothing is kept between requests, so any instance of Sitewright answers any request.
// Every tool is listed to anyone (the handshake and tools/list need no token); the HTTP gate
// (plugin.ts) lets a tool call through only with a token allowed to make it.
import { tracing } from '../lib/tracing.ts';
import { fromJsonSchema, McpServer, type AuthInfo, type CallToolResult } from '@modelcontextprotocol/server';
import { DomainError } from '../modules/common/errors.ts';
import type { Services } from '../modules/index.ts';
import { fieldName, findNul } from '../web/nul-check.ts';
import { TOOL_BY_NAME, TOOLS, type McpCaller, type ToolDefinition } from './tools.ts';
import { tokenPrincipal } from '../modules/access/principal.ts';

export const SERVER_INFO = { name: 'sitewright', title: 'Sitewright', version: '0.1.0' };

function callerOf(authInfo: AuthInfo | undefined): McpCaller | undefined {
  return authInfo?.extra?.caller as McpCaller | undefined;
}

/** Where a tool's unexpected failure is written: the request's logger (its lines carry the request id). */
interface ToolLog {
  error(details: object, message: string): void;
}

function logOf(authInfo: AuthInfo | undefined): ToolLog | undefined {
  return authInfo?.extra?.log as ToolLog | undefined;
}

/**
 * Each tool's schemas as the SDK takes them (fromJsonSchema: the TypeBox schemas are JSON Schema),
 * made once per process: a stateless server is new for every request.
 */
const SCHEMAS = new Map(
  TOOLS.map((tool) => [
    tool.name,
    { input: fromJsonSchema<Record<string, unknown>>(tool.input), output: fromJsonSchema(tool.output) },
  ]),
);

/**
 * A server with every tool, or with the tools `only` names: a server built for one tools/call
 * request needs that tool alone, so the other tools' schemas are not set up for nothing.
 */
export function createMcpServer(services: Services, only?: readonly string[]): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Sitewright builds, hosts and measures websites for an agency’s clients. Typical flow: list_clients or create_client, create_project for the client, generate_site with a prompt, poll get_generation until it succeeded, get_preview_link to show it, publish_project to put it live. create_build_link hands a person a link that does all of this for them.',
  });
  // A call of a tool that does not exist gets the SDK's own answer ("Tool x not found"): that
  // needs the tools to be there.
  const wanted = only?.every((name) => TOOL_BY_NAME.has(name)) ? only : undefined;
  for (const tool of TOOLS) {
    if (wanted && !wanted.includes(tool.name)) continue;
    const schemas = SCHEMAS.get(tool.name)!;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: Record<string, unknown>, ctx) =>
        tracing().span(`mcp tool ${tool.name}`, { 'mcp.tool.name': tool.name }, () =>
          toolResult(tool, services, callerOf(ctx.http?.authInfo), args ?? {}, logOf(ctx.http?.authInfo)),
        ),
    );
  }
  return server;
}

/**
 * What a tool answers, once the SDK has checked its arguments against the tool's input schema:
 * its result as structured content and as JSON text (for clients that read text only), or the
 * service's refusal (not found, invalid, not allowed, limits) as a tool error with its message,
 * as a NUL in any argument is. Anything else (a database driver's error, a bug) is logged and
 * answered "Internal error": its message may hold SQL, addresses or stored values, never for the
 * caller's eyes.
 */
async function toolResult(
  tool: ToolDefinition,
  services: Services,
  caller: McpCaller | undefined,
  args: Record<string, unknown>,
  log?: ToolLog,
): Promise<CallToolResult> {
  if (!caller) return failure('Authentication required: send an API key (wk_...) as a Bearer token');
  // The REST API's NUL rule (web/nul-check.ts): no tool argument is file content.
  const nulAt = findNul(args, undefined);
  if (nulAt !== undefined) return failure(`argument '${fieldName(nulAt)}' must not contain a NUL character`);
  try {
    // The core decides what the caller's principal may reach (modules/access).
    const result = await tool.run(services, tokenPrincipal(caller), args);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    if (error instanceof DomainError) return failure(error.message);
    log?.error({ err: error, tool: tool.name }, 'MCP tool failed');
    return failure('Internal error');
  }
}

/** A tool error: the SDK answers it as the call's result, with `isError` set. */
function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
