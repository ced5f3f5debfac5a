// The MCP server: lists the tool table and serves a call by validating its arguments, copying them into
// the request of the tool's RPC and answering with the response in the protobuf JSON mapping.
import { create, type DescMessage, toJson } from '@bufbuild/protobuf';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TranslateGrpcClient } from './grpc-client.ts';
import { TOOLS, type ToolSpec } from './tool-table.ts';
import { ToolError, toToolError } from './tool-error.ts';

interface CompiledTool {
  spec: ToolSpec;
  listing: Tool;
  /** Protobuf field name → the request's property name (lowerCamel). */
  fields: Map<string, string>;
}

function fieldMap(message: DescMessage): Map<string, string> {
  return new Map(message.fields.map((field) => [field.name, field.localName]));
}

/** Done once at start-up: the listing, and a check that every parameter (or its loaded field) is a request field. */
function compile(spec: ToolSpec): CompiledTool {
  const fields = fieldMap(spec.method.input);
  for (const name of Object.keys(spec.input.shape)) {
    const field = name === spec.loaded?.parameter ? spec.loaded.field : name;
    if (!fields.has(field)) throw new Error(`tool ${spec.name}: ${field} is no field of ${spec.method.input.typeName}`);
  }
  const inputSchema = z.toJSONSchema(spec.input, { io: 'input' }) as Tool['inputSchema'];
  return { spec, fields, listing: { name: spec.name, description: spec.description, inputSchema } };
}

/** Zod issues as one line that names each offending parameter. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

async function runTool(tool: CompiledTool, rawArgs: unknown, client: TranslateGrpcClient, signal: AbortSignal): Promise<CallToolResult> {
  const { spec, fields } = tool;
  const parsed = spec.input.safeParse(rawArgs ?? {});
  if (!parsed.success) throw new ToolError('INVALID_ARGUMENT', `invalid arguments for ${spec.name}: ${describeIssues(parsed.error.issues)}`);
  const init: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.data)) {
    if (name === spec.loaded?.parameter) init[fields.get(spec.loaded.field)!] = await spec.loaded.load(value as string);
    else init[fields.get(name)!] = value;
  }
  const response = await client.call(spec.method, create(spec.method.input, init), signal);
  // Fields with default values included: an empty detectedLanguage or a zero count is an answer too.
  const json = toJson(spec.method.output, response, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(json) }], structuredContent: json, isError: false };
}

export function createToolServer(client: TranslateGrpcClient, version: string): Server {
  const tools = new Map(TOOLS.map((spec) => [spec.name, compile(spec)]));
  const listing = [...tools.values()].map((tool) => tool.listing);
  // The low-level Server, not McpServer: McpServer 1.32.2 answers an unknown tool with a tool error result,
  // where MCP (and the catalog) ask for a JSON-RPC -32602 error.
  const server = new Server({ name: 'translate-tools', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return await runTool(tool, request.params.arguments, client, extra.signal);
    } catch (err) {
      const error = toToolError(err);
      if (!(err instanceof ToolError)) process.stderr.write(`translate-tools: ${request.params.name}: ${(err as Error).stack ?? error.message}\n`);
      return { content: [{ type: 'text', text: error.text }], isError: true };
    }
  });
  return server;
}
