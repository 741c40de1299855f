/**
 * What knowing the caller costs (issue 26). Two parts:
 * - `identify`: identify() in process, as every route calls it, for a signed-in person's session cookie, an
 *   `agent` token, the operator's token and no credential, interleaved call by call. Target: p99 under 1 ms.
 * - `server`: the production server (`next start` through scripts/serve.mjs), one keep-alive client, requests
 *   interleaved round by round: a static file (served before the proxy runs: the floor), a page with no
 *   credential (the proxy sends it to sign-in: what the proxy alone costs; the API is not behind it), GET /api/me
 *   with no credential (the route's own guard refuses it), GET /api/me as the operator (guard and route, nothing
 *   looked up), GET /api/me with a person's session cookie (guard, route, their session and roles), and GET
 *   /api/health (open; a database query and the sandbox probe). Target: the signed-in GET within 1.5x of the
 *   static file, median over rounds of the per-round ratio of medians.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { identify } from "../lib/auth/identify";
import { createToken } from "../lib/db/people/tokens";
import { resetEnvCache } from "../lib/env";
import { addPersonByScript, signedInCookie, TEST_PASSWORD } from "../tests/helpers/people";
import { OPERATOR_TOKEN } from "./lib/credential";
import { buildIfStale, send, startAppServer } from "./lib/servers";
import { median, quantile, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const ROUNDS = Number(process.env.BENCH_REQUEST_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_REQUEST_CALLS ?? 2000);
const REQUESTS = Number(process.env.BENCH_REQUEST_SAMPLES ?? 400);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(quantile(s, 0.5), 3), p99: round(quantile(s, 0.99), 3) };
};

/** Times each labelled call in turn, CALLS times a round; every call's answer is checked before it counts. */
async function interleave<K extends string>(
  kinds: Record<K, () => Promise<boolean>>,
  rounds: number,
  perRound: number,
): Promise<Record<K, number[]>[]> {
  const names = Object.keys(kinds) as K[];
  const out: Record<K, number[]>[] = [];
  for (let i = 0; i < 50; i++) for (const k of names) await kinds[k]();
  for (let r = 0; r < rounds; r++) {
    const one = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
    for (let i = 0; i < perRound; i++)
      for (const k of names) {
        const t0 = performance.now();
        const ok = await kinds[k]();
        one[k].push(performance.now() - t0);
        if (!ok) throw new Error(`${k}: unexpected answer`);
      }
    out.push(one);
  }
  return out;
}

function summarise<K extends string>(rounds: Record<K, number[]>[]) {
  const names = Object.keys(rounds[0] ?? {}) as K[];
  return Object.fromEntries(names.map((k) => [k, stats(rounds.flatMap((r) => r[k]))])) as Record<
    K,
    ReturnType<typeof stats>
  >;
}

export async function benchIdentify() {
  const t = tempDb("identify");
  const dir = path.dirname(t.file);
  Object.assign(process.env, { DATABASE_URL: t.url, PLANGATE_DATA_DIR: dir, PLANGATE_TOKEN: OPERATOR_TOKEN });
  resetEnvCache();
  try {
    const { cookie, userId } = await signedInCookie(t.db, "identify@example.com", [{ root: dir, role: "reviewer" }]);
    const { secret } = await createToken(t.db, { userId, name: "bench agent", scope: "agent" });
    const as = (h: Record<string, string>, kind: string | null) => async () =>
      ((await identify(t.db, new Headers(h)))?.kind ?? null) === kind;
    const rounds = await interleave(
      {
        sessionCookie: as({ cookie }, "person"),
        agentToken: as({ authorization: `Bearer ${secret}` }, "agent-token"),
        operatorToken: as({ authorization: `Bearer ${OPERATOR_TOKEN}` }, "operator"),
        none: as({}, null),
      },
      ROUNDS,
      CALLS,
    );
    return { calls: ROUNDS * CALLS, ms: summarise(rounds), targetP99Ms: 1 };
  } finally {
    delete process.env.PLANGATE_TOKEN;
    resetEnvCache();
    await t.dispose();
  }
}

/** The smallest script the build emitted: a static file as the browser fetches it. */
function staticFile(): string {
  const chunks = path.resolve(import.meta.dirname, "../.next/static/chunks");
  const [smallest] = fs
    .readdirSync(chunks)
    .filter((f) => f.endsWith(".js"))
    .map((f) => ({ f, size: fs.statSync(path.join(chunks, f)).size }))
    .sort((a, b) => a.size - b.size);
  if (!smallest) throw new Error("the build has no static chunks");
  return `/_next/static/chunks/${smallest.f}`;
}

async function benchServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-request-"));
  const env = {
    DATABASE_URL: `file:${path.join(dir, "plangate.db")}`,
    PLANGATE_DATA_DIR: dir,
    PLANGATE_WORKSPACE_ROOTS: dir,
  };
  buildIfStale();
  const server = await startAppServer(env);
  try {
    const port = server.port;
    addPersonByScript(env, "reader@example.com", "reviewer");
    const signIn = await send(port, "POST", "/api/auth/sign-in/email", {
      headers: { origin: `http://127.0.0.1:${port}` },
      body: { email: "reader@example.com", password: TEST_PASSWORD },
    });
    const cookie = String(signIn.headers["set-cookie"]?.[0] ?? "").split(";")[0];
    if (signIn.status !== 200 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
    const file = staticFile();
    const get =
      (p: string, headers: Record<string, string>, ok: (a: { status: number; body: any }) => boolean) => async () =>
        ok(await send(port, "GET", p, { headers }));
    const rounds = await interleave(
      {
        staticFile: get(file, {}, (a) => a.status === 200),
        refusedByProxy: get("/desk", {}, (a) => a.status === 303),
        refusedByRoute: get("/api/me", {}, (a) => a.status === 401),
        operator: get(
          "/api/me",
          { authorization: `Bearer ${OPERATOR_TOKEN}` },
          (a) => a.body?.actor?.kind === "operator",
        ),
        signedIn: get("/api/me", { cookie }, (a) => a.body?.actor?.kind === "person"),
        health: get("/api/health", {}, (a) => a.status === 200),
      },
      ROUNDS,
      REQUESTS,
    );
    const ratios = rounds.map((r) => median(r.signedIn) / median(r.staticFile));
    const p50 = (k: keyof (typeof rounds)[number]) => median(rounds.map((r) => median(r[k])));
    return {
      staticFile: file,
      requests: ROUNDS * REQUESTS,
      ms: summarise(rounds),
      signedInToStaticP50: {
        median: round(median(ratios), 2),
        range: [round(Math.min(...ratios), 2), round(Math.max(...ratios), 2)],
      },
      signedInToHealthP50: round(p50("signedIn") / p50("health"), 2),
      // The proxy's own cost (pages only): a request it answers itself, beside a file served without it.
      proxyAloneMs: round(p50("refusedByProxy") - p50("staticFile"), 3),
      // What an API route costs before anything is looked up: its guard's refusal, beside the static file.
      routeAloneMs: round(p50("refusedByRoute") - p50("staticFile"), 3),
      // What finding the person adds on top of the proxy and the route: the cookie's request beside the operator's.
      personLookupMs: round(p50("signedIn") - p50("operator"), 3),
      targetRatio: 1.5,
    };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchRequest() {
  return { identify: await benchIdentify(), server: await benchServer() };
}
