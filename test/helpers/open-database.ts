import { openDatabase } from '../../src/db/database.js';

/** Opens (and so migrates) the database in DATA_DIR, then exits: one "process starting up". */
const handle = await openDatabase({ dataDir: process.env.DATA_DIR!, databaseUrl: null });
await handle.db.destroy();
process.stdout.write('ok\n');
