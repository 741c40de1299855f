/**
 * Issue 43: a common word's search through the API (`GET /api/sessions?q=the`, the default page of 50), at 50,000
 * sessions against 1,000, in interleaved rounds on two servers, as the operator (every session) and as a reviewer
 * of one of the five workspaces (the roots filter). Target: within 3x. Its floor: the same request with no word.
 */
import { personCookie } from "./lib/credential";
import { seedSessions } from "./lib/seed-sessions";
import { type AppServer, buildIfStale, startAppServer } from "./lib/servers";
import { smallVsBig, timedGet } from "./lib/small-vs-big";
import { median, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const SIZES = [1_000, 50_000] as const;
const ROUNDS = Number(process.env.BENCH_SEARCH_API_ROUNDS ?? 5);
const SAMPLES = 20;

type Reader = { name: string; headers: (i: number) => Record<string, string> | undefined };

// A search that found nothing would time the wrong work.
const found = (body: unknown) => ((body as { sessions?: unknown[] } | null)?.sessions?.length ?? 0) > 0;

export async function benchSearchApi() {
  buildIfStale();
  const dbs = SIZES.map((n) => {
    const t = tempDb(`search-api-${n}`);
    seedSessions(t.file, { to: n, eventsPerSession: 100 });
    return t;
  });
  const servers: AppServer[] = [];
  try {
    for (const t of dbs) servers.push(await startAppServer({ DATABASE_URL: t.url }));
    const cookies = await Promise.all(dbs.map((t) => personCookie(t.db, "/work/ws0")));
    const readers: Reader[] = [
      { name: "operator", headers: () => undefined },
      { name: "reviewer of one workspace", headers: (i) => ({ cookie: cookies[i] as string }) },
    ];
    const out = [];
    for (const reader of readers) {
      const at = (i: number, path: string) => () =>
        timedGet((servers[i] as AppServer).port, path, { headers: reader.headers(i), ok: found });
      const figures = await smallVsBig(ROUNDS, SAMPLES, {
        "common word": { small: at(0, "/api/sessions?q=the"), big: at(1, "/api/sessions?q=the") },
        "no word (floor)": { small: at(0, "/api/sessions"), big: at(1, "/api/sessions") },
      });
      out.push({
        reader: reader.name,
        queries: Object.entries(figures).map(([name, f]) => ({
          name,
          msP50: { at1k: round(median(f.small), 2), at50k: round(median(f.big), 2) },
          ratio: round(median(f.ratio), 2),
        })),
        targetRatio: 3,
      });
    }
    return { name: "search-through-the-api", sessions: SIZES, rounds: ROUNDS, samplesPerRound: SAMPLES, readers: out };
  } finally {
    for (const s of servers) await s.stop();
    for (const t of dbs) await t.dispose();
  }
}
