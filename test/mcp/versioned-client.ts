import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's client speaking an older protocol version: the SDK always offers its latest in `initialize`, so its
 * transport rewrites that one request, and the client then works in whatever version the server answers.
 */
class VersionedTransport extends StreamableHTTPClientTransport {
  constructor(
    url: URL,
    apiKey: string,
    private readonly version: string,
  ) {
    super(url, { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } });
  }

  override send(message: JSONRPCMessage, options?: Parameters<StreamableHTTPClientTransport['send']>[1]): Promise<void> {
    const offered = 'method' in message && message.method === 'initialize' ? { ...message, params: { ...message.params, protocolVersion: this.version } } : message;
    return super.send(offered, options);
  }
}

/** An SDK client connected to `url` in protocol `version`; answers it with the version the server agreed to. */
export async function connectInVersion(url: URL, apiKey: string, version: string): Promise<{ client: Client; agreed: string | undefined }> {
  const transport = new VersionedTransport(url, apiKey, version);
  const client = new Client({ name: `versioned-${version}`, version: '1' });
  await client.connect(transport);
  return { client, agreed: transport.protocolVersion };
}
