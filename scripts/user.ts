// `npm run user -- add <email> [--name N] [--role owner|reviewer|member|viewer] [--root DIR] [--password-stdin]`,
// `npm run user -- reset <email>` (prints a one-time link), `npm run user -- deactivate <email>`: people from a
// shell, as Gitea's and Grafana's admin commands do. Runs on the server's database (DATABASE_URL), which
// `npm start` has created and migrated.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ROLES, type Role } from "../lib/auth/rules/rights";
import { createDb } from "../lib/db/client";
import { appendAudit } from "../lib/db/people/audit";
import { createLink } from "../lib/db/people/links";
import { createPerson, deactivatePerson, findPerson } from "../lib/db/people/people";
import { EnvError, getEnv, isLoopbackHost } from "../lib/env";

const USAGE =
  "usage: npm run user -- add <email> [--name N] [--role owner|reviewer|member|viewer] [--root DIR] [--password-stdin]\n" +
  "       npm run user -- reset <email>\n       npm run user -- deactivate <email>";

function fail(message: string): never {
  console.error(`plangate user: ${message}\n${USAGE}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: "string" },
      role: { type: "string", default: "member" },
      root: { type: "string", default: "/" },
      "password-stdin": { type: "boolean" },
    },
  });
}
try {
  parsed = parse();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const [command, email] = parsed.positionals;
if (!command || !email || parsed.positionals.length > 2) fail("a command and one email are required");
if (!ROLES.includes(parsed.values.role as Role)) fail(`--role must be one of ${ROLES.join(", ")}`);

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  fail(error instanceof EnvError ? error.message : String(error));
}
const db = createDb(env.DATABASE_URL);
const origin = isLoopbackHost(env.HOST) ? `http://localhost:${env.PORT}` : `http://${env.HOST}:${env.PORT}`;
const shell = { by: "operator" } as const;
try {
  if (command === "add") {
    const password = parsed.values["password-stdin"] ? fs.readFileSync(0, "utf8").replace(/\r?\n$/, "") : undefined;
    const role = parsed.values.role as Role;
    const root = parsed.values.root ?? "/";
    const person = await createPerson(
      db,
      {
        email,
        name: parsed.values.name ?? email,
        ...(password !== undefined ? { password } : {}),
        memberships: [{ root, role }],
      },
      (trx, made) =>
        appendAudit(trx, { signer: shell, kind: "person.added", subject: made.email, detail: { role, root } }),
    );
    console.log(`added ${person.email} as ${role} over ${root}`);
    if (password === undefined) {
      const { secret } = await createLink(db, { purpose: "reset", email: person.email, ttlMs: 7 * 24 * 3600_000 });
      console.log(`one-time link to set a password (7 days): ${origin}/link/${secret}`);
    }
  } else if (command === "reset") {
    const person = await findPerson(db, { email });
    if (!person) fail(`no account has the email ${email}`);
    const { secret } = await createLink(db, { purpose: "reset", email: person.email, ttlMs: 24 * 3600_000 });
    await appendAudit(db, { signer: shell, kind: "person.reset", subject: person.email });
    console.log(`one-time link to set a new password (24 hours): ${origin}/link/${secret}`);
  } else if (command === "deactivate") {
    const person = await findPerson(db, { email });
    if (!person) fail(`no account has the email ${email}`);
    await deactivatePerson(db, person.id);
    await appendAudit(db, { signer: shell, kind: "person.deactivated", subject: person.email });
    console.log(`deactivated ${person.email}: their sessions and tokens ended`);
  } else fail(`unknown command ${command}`);
} catch (error) {
  console.error(`plangate user: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
