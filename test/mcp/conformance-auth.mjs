// Preloaded (`node --import`) into the official MCP conformance suite's CLI by test/mcp/conformance.test.ts.
//
// The suite (0.1.16) has no option, setting or environment variable for a header to send to the server under test:
// its scenarios connect with `new StreamableHTTPClientTransport(new URL(url))` (the SDK client, over Node's fetch) or
// with undici's `request` (dns-rebinding-protection), neither given headers. Both send through undici's global
// dispatcher, so one set here adds `Authorization: Bearer $SNIP_CONFORMANCE_KEY` to every request for the server's
// origin ($SNIP_CONFORMANCE_URL) and to nothing else, as an MCP client configured with an API key would.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const key = process.env.SNIP_CONFORMANCE_KEY;
const target = process.env.SNIP_CONFORMANCE_URL;
if (!key || !target) throw new Error('conformance-auth.mjs needs SNIP_CONFORMANCE_KEY and SNIP_CONFORMANCE_URL');
const origin = new URL(target).origin;

// The suite's own undici (it brings v7), so the dispatcher is the kind its `request` and Node's fetch both take.
const require = createRequire(import.meta.url);
const suite = path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const { Agent, setGlobalDispatcher } = await import(pathToFileURL(require.resolve('undici', { paths: [suite] })).href);

const authorization = `Bearer ${key}`;
/** The request's headers with Authorization added, in whichever form undici was given them. */
function withKey(headers) {
  if (headers === undefined || headers === null) return { authorization };
  if (Array.isArray(headers)) {
    const names = headers.filter((_, i) => i % 2 === 0).map((name) => String(name).toLowerCase());
    return names.includes('authorization') ? headers : [...headers, 'authorization', authorization];
  }
  const entries = typeof headers[Symbol.iterator] === 'function' ? [...headers] : Object.entries(headers);
  return entries.some(([name]) => name.toLowerCase() === 'authorization') ? headers : { ...Object.fromEntries(entries), authorization };
}

setGlobalDispatcher(
  new Agent().compose((dispatch) => (options, handler) => {
    const sameOrigin = options.origin !== undefined && new URL(String(options.origin)).origin === origin;
    return dispatch(sameOrigin ? { ...options, headers: withKey(options.headers) } : options, handler);
  }),
);
