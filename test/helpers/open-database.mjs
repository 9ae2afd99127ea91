// Opens (and so migrates) the database in DATA_DIR, then exits: one "process starting up", from dist/ as shipped.
import { openDatabase } from '../../dist/db/database.js';

const handle = await openDatabase({ dataDir: process.env.DATA_DIR, databaseUrl: null });
await handle.db.destroy();
process.stdout.write('ok\n');
