import { requireSupportedNode } from './runtime/node-version.js';

// Checked before the server's modules load: they load the native SQLite driver.
requireSupportedNode();
await import('./server.js');
