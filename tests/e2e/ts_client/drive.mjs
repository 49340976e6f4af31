// Drives `loci serve` with the TypeScript MCP SDK client, as editors built on it do.
// Reads a plan from standard input: {"command", "args", "env", "steps": [{"method", "params"}]}
// (or {"url", "headers", "steps"} for a running `loci serve --transport http`)
// where each method is one of the Client's (callTool, listTools, readResource, getPrompt, ...).
// Prints one JSON line: each step's result, or what the SDK threw ({"thrown": {code, message}}).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const plan = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const transport = plan.url
  ? new StreamableHTTPClientTransport(new URL(plan.url), {
      requestInit: { headers: plan.headers ?? {} },
    })
  : new StdioClientTransport({
      command: plan.command,
      args: plan.args,
      env: plan.env,
      stderr: "inherit",
    });
const client = new Client({ name: "loci-ts-e2e", version: "1.0.0" });
await client.connect(transport);

const options = { timeout: 120000 };
const steps = [];
for (const step of plan.steps) {
  try {
    // callTool takes a result schema before its options; the SDK checks structured content
    // against the output schema listTools gave (list the tools first).
    const result =
      step.method === "callTool"
        ? await client.callTool(step.params, undefined, options)
        : await client[step.method](step.params, options);
    steps.push({ result });
  } catch (error) {
    steps.push({ thrown: { code: error.code ?? null, message: String(error.message) } });
  }
}
process.stdout.write(JSON.stringify({ server: client.getServerCapabilities(), steps }) + "\n");
await client.close();
