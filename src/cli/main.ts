import { requireSupportedNode } from '../runtime/node-version.js';

// Checked before the commands' modules load: they load the native SQLite driver.
requireSupportedNode();
await import('./run.js');
