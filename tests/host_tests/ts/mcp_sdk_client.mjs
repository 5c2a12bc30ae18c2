// The official TypeScript MCP SDK against the Python host: list and call tools over stdio or HTTP.
// usage: node mcp_sdk_client.mjs stdio <python> <repo> [serve option ...]   |   node mcp_sdk_client.mjs http <url>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
const transport =
  mode === "stdio"
    ? new StdioClientTransport({ command: rest[0], args: ["-m", "host", "serve", "--stdio", ...rest.slice(2)], cwd: rest[1], stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(rest[0]));
const client = new Client({ name: "ts-sdk-test", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
const names = listed.tools.map((t) => t.name).sort();
const schema = listed.tools.find((t) => t.name === "browser_evaluate").inputSchema; // listed; "evaluate" is its former name
const first = await client.callTool({ name: "evaluate", arguments: { expression: "window.n = (window.n || 0) + 40; window.n + 2" } });
const second = await client.callTool({ name: "evaluate", arguments: { expression: "window.n + 3" } });
const bad = await client.callTool({ name: "evaluate", arguments: { expression: 42 } });
const unknown = await client.callTool({ name: "evaluat", arguments: {} });
const tabs = await client.callTool({ name: "web_tabs", arguments: { action: "new" } });
await client.close();
console.log(
  JSON.stringify({
    names,
    schemaRequired: schema.required,
    first: first.structuredContent,
    second: second.structuredContent,
    firstText: first.content[0].text,
    bad: { isError: bad.isError, text: bad.content[0].text },
    unknown: { isError: unknown.isError, text: unknown.content[0].text },
    tabs: tabs.structuredContent.result.tabs.length,
  }),
);
