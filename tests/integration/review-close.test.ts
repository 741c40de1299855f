import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { migratePostgres, POSTGRES_MIGRATIONS } from "../../lib/db/migrate";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { onPostgres } from "../helpers/db";
import { enter, exitWith, PLAN_V1 } from "../helpers/plan-kit";
import { waitFor } from "../helpers/poll";

// Issue 25: every way a review closes (a person's decision, the agent's own terminal, a newer plan version, a
// question's answer) must leave the plan as the session list, History and the export show it, never "awaiting
// review" for a plan nothing waits on.
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Verdict = [version: number, status: string, decision: string | null, decidedBy: string | null];

const planStatus = async (id: string) => {
  const { sessions } = (await api.call("GET", "/api/sessions?limit=50")).body as {
    sessions: { id: string; planStatus: string | null }[];
  };
  return sessions.find((s) => s.id === id)?.planStatus;
};
// History lists plan versions newest first: reversed here, they read in the order the list and the export tell them.
const history = async (id: string): Promise<Verdict[]> =>
  (await api.call("GET", `/api/sessions/${id}/history`)).body.history.plans
    .toReversed()
    .map((p: { version: number; status: string; decision: string | null; decidedBy: string | null }) => [
      p.version,
      p.status,
      p.decision,
      p.decidedBy,
    ]);
/** The Markdown export's verdict line of each plan version. */
const exported = async (id: string) => {
  const md = String((await api.call("GET", `/api/sessions/${id}/export?format=md`)).body);
  return [...md.matchAll(/^### Version (\d+): (.*)$/gm)].map((m) => `${m[1]}: ${m[2]?.replace(/ at \d{4}-.*$/, "")}`);
};
/** Everything a person reads about the session's plan. */
const shown = async (id: string) => ({
  list: await planStatus(id),
  history: await history(id),
  export: await exported(id),
});

const PLAN = "# Add a todo filter\n\n1. Add `filter` to src/todo.ts\n2. Test it\n";
const submitOutside = async (plan = PLAN) => {
  const res = await api.call("POST", "/api/external/plan-reviews", {
    agent: "claude-code",
    externalSessionId: "cc-25",
    cwd: api.workspace,
    plan,
    planFilePath: "~/.claude/plans/todo-filter.md",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sessionId: string; reviewId: string; version: number };
};
const answeredInTerminal = (reviewId: string, answer: string) =>
  api.call("POST", `/api/external/plan-reviews/${reviewId}/answered-elsewhere`, { answer });
const decide = (reviewId: string, body: Record<string, unknown>) =>
  api.call("POST", `/api/reviews/${reviewId}/decision`, body);
const pendingReview = async (id: string) =>
  (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0] as
    | { id: string; kind: string }
    | undefined;

/** Plangate's own agent in plan mode, waiting on its first plan. */
async function ownPlanWaiting(): Promise<{ id: string; reviewId: string }> {
  const id = await startScripted(api, [exitWith(PLAN_V1), { text: "carried on" }], { mode: "plan" });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
  expect((await settle(api, id)).status).toBe("awaiting_review");
  const review = await pendingReview(id);
  expect(review?.kind).toBe("plan-review");
  return { id, reviewId: review!.id };
}

describe("a review's close shows alike in the session list, History and the export", () => {
  it("while a plan waits it shows as awaiting review everywhere", async () => {
    api = testApi();
    const { id } = await ownPlanWaiting();
    expect(await shown(id)).toEqual({
      list: "submitted",
      history: [[1, "submitted", null, null]],
      export: ["1: submitted"],
    });
  });

  it.each([
    ["approve", "approved"],
    ["reject", "rejected"],
    ["abandon", "abandoned"],
  ])("a person decides on the desk (%s)", async (decision, status) => {
    api = testApi();
    const { id, reviewId } = await ownPlanWaiting();
    expect((await decide(reviewId, { decision })).status).toBe(200);
    await settle(api, id);
    // An approval's work is verified in the background when the turn ends: let it finish before the database goes.
    if (decision === "approve")
      await waitFor(
        "the verification",
        async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications.length > 0,
      );
    expect(await shown(id)).toEqual({
      list: status,
      history: [[1, status, decision, "operator"]],
      export: [`1: ${decision} by operator`],
    });
  });

  it.each([
    ["approved", "Approved in the agent's own terminal."],
    ["rejected", "Rejected in the agent's own terminal."],
    ["unknown", "Answered in the agent's own terminal."],
  ])("an outside agent's plan answered in its own terminal (%s) is no longer awaiting review", async (answer, text) => {
    api = testApi();
    const { sessionId, reviewId } = await submitOutside();
    expect(await planStatus(sessionId)).toBe("submitted");
    expect((await answeredInTerminal(reviewId, answer)).status).toBe(200);
    expect(await shown(sessionId)).toEqual({
      list: "answered_elsewhere",
      history: [[1, "answered_elsewhere", answer, "terminal"]],
      export: [`1: ${answer} by terminal`],
    });
    const md = String((await api.call("GET", `/api/sessions/${sessionId}/export?format=md`)).body);
    expect(md).toContain(`Feedback: ${text}`);
    // The review's own page says the same of its version.
    expect((await api.call("GET", `/api/reviews/${reviewId}`)).body.plan.status).toBe("answered_elsewhere");
    expect((await api.call("GET", `/api/sessions/${sessionId}`)).body.state.status).toBe("idle");
  });

  it("a version replaced by a newer one while pending closes as superseded; the newer one is what waits", async () => {
    api = testApi();
    const first = await submitOutside();
    const second = await submitOutside(`${PLAN}3. Document it\n`);
    expect(second).toMatchObject({ sessionId: first.sessionId, version: 2 });
    expect(await shown(first.sessionId)).toEqual({
      list: "submitted",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "submitted", null, null],
      ],
      export: ["1: superseded by claude-code", "2: submitted"],
    });
    // The desk answers the newer one: nothing is left awaiting review.
    expect((await decide(second.reviewId, { decision: "approve" })).status).toBe(200);
    expect(await shown(first.sessionId)).toEqual({
      list: "approved",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "approved", "approve", "operator"],
      ],
      export: ["1: superseded by claude-code", "2: approve by operator"],
    });
  });

  it("superseded, then the newer version answered in the terminal: no version and no plan stays submitted", async () => {
    api = testApi();
    const first = await submitOutside();
    const second = await submitOutside(`${PLAN}3. Document it\n`);
    expect((await answeredInTerminal(second.reviewId, "rejected")).status).toBe(200);
    expect(await shown(first.sessionId)).toEqual({
      list: "answered_elsewhere",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "answered_elsewhere", "rejected", "terminal"],
      ],
      export: ["1: superseded by claude-code", "2: rejected by terminal"],
    });
  });

  it("a teammate's plan decided by a person in the lead's mailbox", async () => {
    api = testApi();
    const lead = await startScripted(api, []);
    const teamId = (await api.call("POST", "/api/teams", { sessionId: lead })).body.team.id as string;
    // A person sent the outside agent's plans to the team (outside agents never join one by themselves); its next
    // plan supersedes the one on the desk and waits in the mailbox.
    const first = await submitOutside();
    expect((await api.call("POST", `/api/teams/${teamId}/members`, { sessionId: first.sessionId })).status).toBe(200);
    const { sessionId } = await submitOutside(`${PLAN}\n3. And a test.\n`);
    const mail = (await api.call("GET", `/api/teams/${teamId}/mailbox?status=pending`)).body.messages as {
      id: string;
    }[];
    expect(mail).toHaveLength(1);
    expect(
      (await api.call("POST", `/api/teams/${teamId}/mailbox/${mail[0]?.id}/reply`, { approve: false, feedback: "no" }))
        .status,
    ).toBe(200);
    expect(await shown(sessionId)).toEqual({
      list: "rejected",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "rejected", "reject", "operator"],
      ],
      export: ["1: superseded by claude-code", "2: reject by operator"],
    });
  });

  it.each([
    [{ answers: [["Postgres"]] }, "answered", "answered"],
    [{ decision: "abandon" }, "abandoned", "abandon"],
  ])("a question answered (%j) closes its review and leaves the plan as it was", async (body, status, decision) => {
    api = testApi();
    const id = await startScripted(api, [
      enter,
      call("question", {
        questions: [{ question: "Which store?", options: [{ label: "SQLite" }, { label: "Postgres" }] }],
      }),
      { text: "noted" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_review");
    const question = await pendingReview(id);
    expect(question?.kind).toBe("question");
    expect(await shown(id)).toEqual({ list: "draft", history: [], export: [] });
    expect((await decide(question!.id, body)).status).toBe(200);
    const row = await api.t.db.review.findUniqueOrThrow({ where: { id: question!.id } });
    expect(row).toMatchObject({ status, decision, decidedBy: "user", pendingKey: null, planId: null });
    expect(row.decidedAt).toBeInstanceOf(Date);
    await settle(api, id);
    expect(await shown(id)).toEqual({ list: "draft", history: [], export: [] });
  });
});

// ---- The repair migration, on databases that already hold the drift ----

const REPAIR = "20261204000000_review_close_repair";
const SQLITE_MIGRATIONS = path.resolve(import.meta.dirname, "../../prisma/migrations");
const T0 = "2026-12-01T10:00:00.000Z";
const T1 = "2026-12-01T11:00:00.000Z";
const T2 = "2026-12-01T12:00:00.000Z";

type Exec = (sql: string, args?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Sessions as the old code left them: each close but the desk's left its version or its plan "submitted". */
async function writeDrift(exec: Exec): Promise<void> {
  const session = (id: string, model: string) =>
    exec(
      'INSERT INTO "Session" ("id", "title", "workspace", "model", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
      [id, id, "/w", model, T0, T0],
    );
  const plan = (id: string, sessionId: string, status: string, currentVersion: number) =>
    exec(
      'INSERT INTO "Plan" ("id", "sessionId", "slug", "filePath", "status", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [id, sessionId, id, `/w/${id}.md`, status, currentVersion, T0, T0],
    );
  const version = (planId: string, v: number, status: string, extra: [string | null, string | null, string | null]) =>
    exec(
      'INSERT INTO "PlanVersion" ("id", "planId", "version", "content", "filePath", "status", "decision", "decidedBy", "decidedAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [`${planId}_v${v}`, planId, v, `plan ${v}`, `/w/${planId}.md`, status, ...extra, T0],
    );
  const review = (
    id: string,
    sessionId: string,
    planId: string,
    v: number,
    status: string,
    close: [string, string | null, string, string] | null,
  ) =>
    exec(
      'INSERT INTO "Review" ("id", "sessionId", "kind", "status", "pendingKey", "planId", "planVersion", "decision", "feedback", "decidedBy", "decidedAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        sessionId,
        "plan-review",
        status,
        close ? null : sessionId,
        planId,
        v,
        ...(close ?? [null, null, null, null]),
        T0,
      ],
    );
  // Answered in the terminal: the version said so, the plan still "submitted".
  await session("s_term", "external");
  await plan("p_term", "s_term", "submitted", 1);
  await version("p_term", 1, "answered_elsewhere", [null, "terminal", T1]);
  await review("r_term", "s_term", "p_term", 1, "answered_elsewhere", [
    "approved",
    "Approved in the agent's own terminal.",
    "terminal",
    T1,
  ]);
  // Superseded while pending; the newer version still waits.
  await session("s_sup", "external");
  await plan("p_sup", "s_sup", "submitted", 2);
  await version("p_sup", 1, "submitted", [null, null, null]);
  await version("p_sup", 2, "submitted", [null, null, null]);
  await review("r_sup1", "s_sup", "p_sup", 1, "abandoned", ["superseded", null, "claude-code", T1]);
  await review("r_sup2", "s_sup", "p_sup", 2, "pending", null);
  // Superseded, then the newer version answered in the terminal.
  await session("s_both", "external");
  await plan("p_both", "s_both", "submitted", 2);
  await version("p_both", 1, "submitted", [null, null, null]);
  await version("p_both", 2, "answered_elsewhere", [null, "terminal", T2]);
  await review("r_both1", "s_both", "p_both", 1, "abandoned", ["superseded", null, "claude-code", T1]);
  await review("r_both2", "s_both", "p_both", 2, "answered_elsewhere", [
    "rejected",
    "Rejected in the agent's own terminal.",
    "terminal",
    T2,
  ]);
  // Rows that were never drifted: an approval on the desk, and a plan that really waits.
  await session("s_ok", "scripted");
  await plan("p_ok", "s_ok", "approved", 1);
  await version("p_ok", 1, "approved", ["approve", "user", T1]);
  await review("r_ok", "s_ok", "p_ok", 1, "approved", ["approve", null, "user", T1]);
  await session("s_wait", "scripted");
  await plan("p_wait", "s_wait", "submitted", 1);
  await version("p_wait", 1, "submitted", [null, null, null]);
  await review("r_wait", "s_wait", "p_wait", 1, "pending", null);
}

/** A stored time as ISO text: SQLite keeps the text written, PostgreSQL's timestamp comes as text without a zone (UTC). */
const iso = (v: unknown) =>
  v === null ? null : new Date(/Z$/.test(String(v)) ? String(v) : `${String(v).replace(" ", "T")}Z`).toISOString();

async function readRepaired(exec: Exec) {
  const plans = await exec('SELECT "id", "status" FROM "Plan" ORDER BY "id"');
  const versions = await exec(
    'SELECT "id", "status", "decision", "feedback", "decidedBy", "decidedAt" FROM "PlanVersion" ORDER BY "id"',
  );
  return {
    plans: Object.fromEntries(plans.map((p) => [p.id, p.status])),
    versions: Object.fromEntries(
      versions.map((v) => [v.id, [v.status, v.decision, v.feedback, v.decidedBy, iso(v.decidedAt)]]),
    ),
  };
}

const REPAIRED = {
  plans: {
    p_both: "answered_elsewhere",
    p_ok: "approved",
    p_sup: "submitted",
    p_term: "answered_elsewhere",
    p_wait: "submitted",
  },
  versions: {
    p_both_v1: ["abandoned", "superseded", null, "claude-code", T1],
    p_both_v2: ["answered_elsewhere", "rejected", "Rejected in the agent's own terminal.", "terminal", T2],
    p_ok_v1: ["approved", "approve", null, "user", T1],
    p_sup_v1: ["abandoned", "superseded", null, "claude-code", T1],
    p_sup_v2: ["submitted", null, null, null, null],
    p_term_v1: ["answered_elsewhere", "approved", "Approved in the agent's own terminal.", "terminal", T1],
    p_wait_v1: ["submitted", null, null, null, null],
  },
};

describe("the review_close_repair migration", () => {
  it("the migration is the same data-only SQL on both engines, after every schema change before it, and nothing later rewrites those rows", () => {
    const sqlite = fs.readFileSync(path.join(SQLITE_MIGRATIONS, REPAIR, "migration.sql"), "utf8");
    const postgres = fs.readFileSync(path.join(POSTGRES_MIGRATIONS, REPAIR, "migration.sql"), "utf8");
    expect(postgres).toBe(sqlite);
    expect(sqlite).not.toMatch(/\b(CREATE|ALTER|DROP)\b/i);
    for (const dir of [SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS]) {
      const names = fs
        .readdirSync(dir)
        .filter((n) => fs.existsSync(path.join(dir, n, "migration.sql")))
        .sort();
      expect(names).toContain(REPAIR);
      for (const later of names.filter((n) => n > REPAIR)) {
        const text = fs.readFileSync(path.join(dir, later, "migration.sql"), "utf8");
        expect(text, later).not.toMatch(/\bUPDATE\s+"(Plan|PlanVersion|Review)"/i);
      }
    }
  });

  it.skipIf(onPostgres)(
    "SQLite: rows drifted before it are repaired; rows that were right are left alone",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-repair-"));
      const db = new Database(path.join(dir, "before.db"));
      try {
        const names = fs
          .readdirSync(SQLITE_MIGRATIONS)
          .filter((n) => fs.existsSync(path.join(SQLITE_MIGRATIONS, n, "migration.sql")))
          .sort();
        const sql = (name: string) => fs.readFileSync(path.join(SQLITE_MIGRATIONS, name, "migration.sql"), "utf8");
        // Migrated up to the migration before the repair, as `prisma migrate deploy` runs each script.
        for (const name of names.filter((n) => n < REPAIR)) db.exec(sql(name));
        const exec: Exec = async (text, args = []) => {
          const st = db.prepare(text);
          return st.reader ? (st.all(...args) as Record<string, unknown>[]) : (st.run(...args), []);
        };
        await writeDrift(exec);
        db.exec(sql(REPAIR));
        expect(await readRepaired(exec)).toEqual(REPAIRED);
        // Applied again (a copy restored from before it), it changes nothing more.
        db.exec(sql(REPAIR));
        expect(await readRepaired(exec)).toEqual(REPAIRED);
      } finally {
        db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!onPostgres)(
    "PostgreSQL: rows drifted before it are repaired; rows that were right are left alone",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-repair-"));
      const name = `repair_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: inject("pgUrl") });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(inject("pgUrl"));
      url.pathname = `/${name}`;
      // Timestamps as the text stored (UTC), not parsed in this process's zone.
      const client = new pg.Client({
        connectionString: url.toString(),
        types: {
          getTypeParser: (oid, format) => (oid === 1114 ? (v: string) => v : pg.types.getTypeParser(oid, format)),
        },
      });
      try {
        // The committed migrations up to the one before the repair, applied as a server start applies them.
        const before = path.join(dir, "before");
        for (const m of fs.readdirSync(POSTGRES_MIGRATIONS).filter((n) => n < REPAIR))
          fs.cpSync(path.join(POSTGRES_MIGRATIONS, m), path.join(before, m), { recursive: true });
        await migratePostgres(url.toString(), { quiet: true, dir: before });
        await client.connect();
        const exec: Exec = async (text, args = []) => {
          let n = 0;
          return (
            await client.query(
              text.replace(/\?/g, () => `$${++n}`),
              args,
            )
          ).rows;
        };
        await writeDrift(exec);
        // The next start applies the repair (and the migrations after it).
        await migratePostgres(url.toString(), { quiet: true });
        const applied = await exec('SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name" DESC');
        expect(applied.map((r) => r.migration_name)).toContain(REPAIR);
        expect(await readRepaired(exec)).toEqual(REPAIRED);
      } finally {
        await client.end().catch(() => undefined);
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
