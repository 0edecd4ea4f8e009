// A tool call of the 2025 revisions, answered without building an MCP server for it.
//
// The SDK's stateless handler builds a server, a transport, a web Request/Response pair and an
// SSE stream for every request, and its protocol layer classifies and validates each message with
// zod several times over. For a call that reads one project that machinery cost several times the
// read itself; even one server kept per process, fed through an in-process transport, cost 3x the
// REST call (bench/README.md). The SDK's own word for serving 2025-era traffic another way is to
// route it in front of its handler (createMcpHandler's `legacy` option); this does so for the
// request agents make most, one `tools/call`, and leaves every other request to the SDK.
//
// The answer is the one the SDK's server gives (its tools/call handler of the 2025 era, version
// pinned in package.json): the arguments are validated against the tool's schema with the same
// error text, the tool runs through the same function (server.ts toolResult), the structured
// result is validated against the output schema, and the answer is framed as one SSE `message`
// event. test/mcp/tool-call.test.ts holds the two answers equal, byte for byte, for every tool.
import { SUPPORTED_PROTOCOL_VERSIONS, isJsonContentType, type CallToolResult, type JSONRPCRequest } from '@modelcontextprotocol/server';
import type { Services } from '../modules/index.ts';
import { failure, toolResult } from './server.ts';
import { TOOL_BY_NAME, type McpCaller, type ToolDefinition } from './tools.ts';

/** The headers the SDK's stateless transport answers a POST with (SSE). */
export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' } as const;

type HttpHeaders = Record<string, string | string[] | undefined>;
const header = (headers: HttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};
const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export interface ToolCall {
  id: string | number;
  tool: ToolDefinition;
  args: unknown;
}

/**
 * The tool call this path answers, or undefined for every request the SDK's handler must see:
 * another method, a batch, a notification, an id or params of another shape, `_meta` with more
 * than a progress token (the 2026 revision's envelope among them), a tool that does not exist
 * (the SDK's own error), the 2026 revision's headers, or headers the SDK's transport refuses (406,
 * 415, 400: it answers those, with its messages). A request of the 2026 revision names it in the
 * MCP-Protocol-Version header or in `_meta`, so what passes here is of the 2025 era.
 */
export function toolCallOf(method: string, headers: HttpHeaders, body: unknown): ToolCall | undefined {
  if (method !== 'POST' || !isPlainObject(body)) return undefined;
  const { jsonrpc, id, method: rpcMethod, params } = body;
  if (jsonrpc !== '2.0' || rpcMethod !== 'tools/call' || Object.keys(body).length !== 4) return undefined;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string' || !Object.keys(params).every((key) => key === 'name' || key === 'arguments' || key === '_meta')) return undefined;
  if (params._meta !== undefined && !onlyProgressToken(params._meta)) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const tool = TOOL_BY_NAME.get(params.name);
  if (!tool) return undefined;
  const accept = header(headers, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(header(headers, 'content-type') ?? null)) return undefined;
  const version = header(headers, 'mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
  return { id, tool, args: params.arguments };
}

/**
 * `_meta` holding a progress token and nothing else. Clients send one to hear of a long call's
 * progress; no tool of ours reports any, so the SDK's answer is the result alone, as here. Any
 * other key (the 2026 revision's envelope among them) goes to the SDK.
 */
function onlyProgressToken(meta: unknown): boolean {
  if (!isPlainObject(meta)) return false;
  const keys = Object.keys(meta);
  return keys.length === 1 && keys[0] === 'progressToken' && (typeof meta.progressToken === 'string' || Number.isSafeInteger(meta.progressToken));
}

/** The SDK's text for a schema's issues: `path: message`, joined by commas. */
function issuesText(issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined }>): string {
  return issues.map((issue) => (issue.path?.length ? `${issue.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}` : issue.message)).join(', ');
}

/** The tool's answer, as the SDK's tools/call handler of the 2025 era gives it. */
export async function answerToolCall(call: ToolCall, services: Services, caller: McpCaller): Promise<CallToolResult> {
  const { tool } = call;
  try {
    const input = await tool.input['~standard'].validate(call.args ?? {});
    if (input.issues) return failure(`Input validation error: Invalid arguments for tool ${tool.name}: ${issuesText(input.issues)}`);
    const result = await toolResult(tool, services, caller, input.value as Record<string, unknown>);
    if (result.isError) return result;
    const output = await tool.output['~standard'].validate(result.structuredContent);
    if (output.issues) return failure(`Output validation error: Invalid structured content for tool ${tool.name}: ${issuesText(output.issues)}`);
    return result;
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
}

/** The body the SDK's transport sends for one answer: a single SSE `message` event. */
export function sseFrame(id: JSONRPCRequest['id'], result: CallToolResult): string {
  return `event: message\ndata: ${JSON.stringify({ result, jsonrpc: '2.0', id })}\n\n`;
}
