// A plain tool call, answered without building an MCP server for it.
//
// The SDK's stateless handler builds a server, a transport, a web Request/Response pair and an
// SSE stream for every request, and its protocol layer classifies and validates each message with
// zod several times over. For a call that reads one project that machinery cost several times the
// read itself; even one server kept per process, fed through an in-process transport, cost 3x the
// REST call (bench/README.md). The SDK's own word for serving 2025-era traffic another way is to
// route it in front of its handler (createMcpHandler's `legacy` option); this does so for the
// request agents make most, one `tools/call`, and leaves every other request to the SDK. The
// 2026 revision's tool call is answered here too, once the SDK's own classifier has accepted its
// per-request envelope and headers.
//
// The answer is the one the SDK's server gives (its tools/call handler, version pinned in
// package.json): the arguments are validated against the tool's schema with the same error
// text, the tool runs through the same function (server.ts toolResult), the structured result is
// validated against the output schema; a 2025 answer is framed as one SSE `message` event, a 2026
// one is plain JSON with `resultType` and the server's identity in `_meta`.
// test/mcp/tool-call.test.ts holds the two answers equal, byte for byte, for every tool.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  classifyInboundRequest,
  isJsonContentType,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../lib/objects.ts';
import type { Services } from '../modules/index.ts';
import { SERVER_INFO, failure, toolResult, type ToolLog } from './server.ts';
import { TOOL_BY_NAME, type McpCaller, type ToolDefinition } from './tools.ts';

/** The headers the SDK's stateless transport answers a 2025-era POST with (SSE). */
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

type HttpHeaders = Record<string, string | string[] | undefined>;
const header = (headers: HttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** The 2026 revision, whose tool calls carry their protocol version, client and capabilities in `_meta`. */
export const MODERN_REVISION = '2026-07-28';
const LEGACY_REVISIONS = SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version < MODERN_REVISION);
const ENVELOPE_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY];

export interface ToolCall {
  id: string | number;
  tool: ToolDefinition;
  args: unknown;
  /** `legacy`: the 2025 revisions (an SSE answer); `modern`: the 2026 one (a JSON answer). */
  era: 'legacy' | 'modern';
}

/**
 * The tool call this path answers, or undefined for every request the SDK's handler must see:
 * another method, a batch, a notification, an id or params of another shape, a tool that does not
 * exist (the SDK's own error), or headers the SDK's transport refuses (406, 415, 400: it answers
 * those, with its messages). Of the 2025 era: `_meta` holds at most a progress token, and no 2026
 * header is sent. Of the 2026 revision: the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers
 * name it, the call and the tool exactly, and `_meta` is the envelope alone, which the SDK's own
 * classifier accepts; anything more (a progress token, trace context) goes to the SDK.
 */
export function toolCallOf(method: string, headers: HttpHeaders, body: unknown): ToolCall | undefined {
  if (method !== 'POST' || !isPlainObject(body)) return undefined;
  const { jsonrpc, id, method: rpcMethod, params } = body;
  if (jsonrpc !== '2.0' || rpcMethod !== 'tools/call' || Object.keys(body).length !== 4) return undefined;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (
    !isPlainObject(params) ||
    typeof params.name !== 'string' ||
    !Object.keys(params).every((key) => key === 'name' || key === 'arguments' || key === '_meta')
  )
    return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const tool = TOOL_BY_NAME.get(params.name);
  if (!tool) return undefined;
  const accept = header(headers, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(header(headers, 'content-type') ?? null)) return undefined;
  const version = header(headers, 'mcp-protocol-version');
  if (version === MODERN_REVISION)
    return isModernCall(headers, body, params)
      ? { id, tool, args: params.arguments, era: 'modern' }
      : undefined;
  if (params._meta !== undefined && !onlyProgressToken(params._meta)) return undefined;
  if (version !== undefined && !LEGACY_REVISIONS.includes(version)) return undefined;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
  return { id, tool, args: params.arguments, era: 'legacy' };
}

/** A 2026 tools/call whose headers name it exactly and whose `_meta` is the envelope alone, accepted by the SDK's classifier. */
function isModernCall(
  headers: HttpHeaders,
  body: Record<string, unknown>,
  params: Record<string, unknown>,
): boolean {
  if (header(headers, 'mcp-method') !== 'tools/call' || header(headers, 'mcp-name') !== params.name)
    return false;
  const meta = params._meta;
  if (
    !isPlainObject(meta) ||
    Object.keys(meta).length !== ENVELOPE_KEYS.length ||
    !ENVELOPE_KEYS.every((key) => key in meta)
  )
    return false;
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return false;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: MODERN_REVISION,
    mcpMethodHeader: 'tools/call',
    mcpNameHeader: params.name as string,
    body,
  });
  return (
    route.kind === 'modern' &&
    route.messageKind === 'request' &&
    route.classification.revision === MODERN_REVISION
  );
}

/**
 * `_meta` holding a progress token and nothing else. Clients send one to hear of a long call's
 * progress; no tool of ours reports any, so the SDK's answer is the result alone, as here. Any
 * other key (the 2026 revision's envelope among them) goes to the SDK.
 */
function onlyProgressToken(meta: unknown): boolean {
  if (!isPlainObject(meta)) return false;
  const keys = Object.keys(meta);
  return (
    keys.length === 1 &&
    keys[0] === 'progressToken' &&
    (typeof meta.progressToken === 'string' || Number.isSafeInteger(meta.progressToken))
  );
}

/** The SDK's text for a schema's issues: `path: message`, joined by commas. */
function issuesText(
  issues: ReadonlyArray<{
    message: string;
    path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
  }>,
): string {
  return issues
    .map((issue) =>
      issue.path?.length
        ? `${issue.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}`
        : issue.message,
    )
    .join(', ');
}

/** The tool's answer, as the SDK's tools/call handler of the 2025 era gives it. */
export async function answerToolCall(
  call: ToolCall,
  services: Services,
  caller: McpCaller,
  log: ToolLog,
): Promise<CallToolResult> {
  const { tool } = call;
  try {
    const input = await tool.input['~standard'].validate(call.args ?? {});
    if (input.issues)
      return failure(
        `Input validation error: Invalid arguments for tool ${tool.name}: ${issuesText(input.issues)}`,
      );
    const result = await toolResult(tool, services, caller, input.value as Record<string, unknown>, log);
    if (result.isError) return result;
    const output = await tool.output['~standard'].validate(result.structuredContent);
    if (output.issues)
      return failure(
        `Output validation error: Invalid structured content for tool ${tool.name}: ${issuesText(output.issues)}`,
      );
    return result;
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The answer as the SDK frames it for the call's era: of the 2025 revisions, a single SSE
 * `message` event; of the 2026 revision, the JSON result, complete, with the server's identity in
 * `_meta` (the SDK merges that identity into the result's own `_meta`; our tools return none).
 */
export function framedAnswer(
  call: ToolCall,
  result: CallToolResult,
): { headers: Record<string, string>; body: string } {
  if (call.era === 'modern') {
    const answer = {
      result: { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } },
      jsonrpc: '2.0',
      id: call.id,
    };
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) };
  }
  return {
    headers: SSE_HEADERS,
    body: `event: message\ndata: ${JSON.stringify({ result, jsonrpc: '2.0', id: call.id })}\n\n`,
  };
}
