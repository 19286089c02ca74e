// A minimal MCP server over stdio (newline-delimited JSON-RPC) with one tool and one resource, so
// captured Codex requests show how MCP tools and the MCP resource tools are declared. Test-only.
import readline from 'node:readline';

const TOOL = {
  name: 'echo',
  description: 'Returns the given text unchanged.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to return.' } }, required: ['text'] },
};
const RESOURCE = { uri: 'mini://notes/readme', name: 'readme', mimeType: 'text/plain', description: 'A short note.' };

const results = {
  initialize: (params) => ({
    protocolVersion: params?.protocolVersion ?? '2025-06-18',
    capabilities: { tools: {}, resources: {} },
    serverInfo: { name: 'mini', version: '1.0.0' },
  }),
  'tools/list': () => ({ tools: [TOOL] }),
  'tools/call': (params) => ({ content: [{ type: 'text', text: String(params?.arguments?.text ?? '') }] }),
  'resources/list': () => ({ resources: [RESOURCE] }),
  'resources/templates/list': () => ({ resourceTemplates: [] }),
  'resources/read': () => ({ contents: [{ uri: RESOURCE.uri, mimeType: 'text/plain', text: 'Hello from mini.' }] }),
  ping: () => ({}),
};

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return; // not JSON-RPC: MCP clients never send this, so there is nobody to answer
  }
  if (msg.id === undefined) return; // notifications need no answer
  const result = results[msg.method];
  if (result) send({ id: msg.id, result: result(msg.params) });
  else send({ id: msg.id, error: { code: -32601, message: `method not found: ${msg.method}` } });
});
