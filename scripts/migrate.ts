// `npm run db:migrate`: apply the committed migrations to DATABASE_URL (SQLite or PostgreSQL) and stop.
import { migrateDatabase } from "../lib/db/migrate";
import { parseEnv } from "../lib/env";
import { databaseWhere } from "../lib/db/database-location";

const env = parseEnv(process.env, process.cwd());
await migrateDatabase(env.DATABASE_URL);
console.log(`plangate: database ready: ${databaseWhere(env.DATABASE_URL)}`);
