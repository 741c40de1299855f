/**
 * Issue 43: the lists a team's work grows, at scale against small, in interleaved rounds on two servers: a team's
 * page and its mailbox API with 1,000 letters against 10, and a session's page and its History API with 200 plan
 * versions against 10. Target: within 2x. Each list's floor is the same page's cost at the small size.
 */
import { request, type AppServer, buildIfStale, startAppServer } from "./lib/servers";
import { smallVsBig, timedGet } from "./lib/small-vs-big";
import { median, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const SMALL_VERSIONS = Number(process.env.BENCH_LISTS_SMALL_VERSIONS ?? 10);
const SIZES = [
  { letters: 10, versions: SMALL_VERSIONS },
  { letters: 1_000, versions: 200 },
] as const;
const ROUNDS = Number(process.env.BENCH_LISTS_ROUNDS ?? 5);
const SAMPLES = 10;

/**
 * A plan of 30 steps, revised as a review asks: version v rewrites step v % 30 (naming v), so each version differs
 * from the one before in the steps v and v - 1.
 */
const planText = (v: number) =>
  `# Plan: paging\n\n${Array.from(
    { length: 30 },
    (_, i) => `${i + 1}. ${i === v % 30 ? `change \`src/page-${v}.ts\` and its test` : `keep step ${i + 1} as it is`}`,
  ).join("\n")}\n`;

async function seed(server: AppServer, t: ReturnType<typeof tempDb>, size: (typeof SIZES)[number]) {
  const made = await request(server.port, "POST", "/api/sessions", {
    model: "scripted",
    mode: "default",
    title: "Lists bench",
    script: [],
  });
  if (made.status !== 201) throw new Error(`session: ${made.status} ${JSON.stringify(made.body)}`);
  const sessionId = made.body.session.id as string;
  const team = await request(server.port, "POST", "/api/teams", { sessionId, name: "Bench team" });
  if (team.status !== 201) throw new Error(`team: ${team.status} ${JSON.stringify(team.body)}`);
  const teamId = team.body.team.id as string;
  const start = Date.UTC(2026, 0, 1);
  await t.db.mailboxMessage.createMany({
    data: Array.from({ length: size.letters }, (_, i) => ({
      id: `msg_bench_${i}`,
      teamId,
      seq: i + 1,
      fromSession: sessionId,
      toSession: sessionId,
      type: "message",
      payload: JSON.stringify({ text: `note ${i + 1}: the paging change is ready for a look` }),
      status: "read",
      createdAt: new Date(start + i * 1000),
    })),
  });
  const planId = "pln_bench";
  await t.db.plan.create({
    data: { id: planId, sessionId, slug: "paging", filePath: "paging.md", currentVersion: size.versions },
  });
  await t.db.planVersion.createMany({
    data: Array.from({ length: size.versions }, (_, i) => ({
      id: `${planId}_v${i + 1}`,
      planId,
      version: i + 1,
      content: planText(i + 1),
      filePath: "paging.md",
      status: i + 1 < size.versions ? "rejected" : "submitted",
      createdAt: new Date(start + i * 1000),
    })),
  });
  return { sessionId, teamId };
}

export async function benchLists() {
  buildIfStale();
  const dbs = SIZES.map((_, i) => tempDb(`lists-${i}`));
  const servers: AppServer[] = [];
  try {
    for (const t of dbs) servers.push(await startAppServer({ DATABASE_URL: t.url, PLANGATE_ALLOW_SCRIPTED: "1" }));
    const seeded = await Promise.all(servers.map((s, i) => seed(s, dbs[i] as (typeof dbs)[number], SIZES[i]!)));
    const paths = (i: number) => {
      const { sessionId, teamId } = seeded[i]!;
      return {
        "team page": `/team/${teamId}`,
        "mailbox API": `/api/teams/${teamId}/mailbox`,
        "session page": `/sessions/${sessionId}`,
        "History API": `/api/sessions/${sessionId}/history`,
      };
    };
    const names = Object.keys(paths(0)) as (keyof ReturnType<typeof paths>)[];
    const at = (i: number, name: (typeof names)[number]) => () => timedGet(servers[i]!.port, paths(i)[name]);
    const figures = await smallVsBig(
      ROUNDS,
      SAMPLES,
      Object.fromEntries(names.map((n) => [n, { small: at(0, n), big: at(1, n) }])),
    );
    return {
      name: "lists-at-scale",
      sizes: SIZES,
      rounds: ROUNDS,
      lists: Object.entries(figures).map(([name, f]) => ({
        name,
        msP50: { small: round(median(f.small), 2), big: round(median(f.big), 2) },
        ratio: round(median(f.ratio), 2),
        targetRatio: 2,
      })),
    };
  } finally {
    for (const s of servers) await s.stop();
    for (const t of dbs) await t.dispose();
  }
}
