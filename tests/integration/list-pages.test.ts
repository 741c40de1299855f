import { afterEach, describe, expect, it } from "vitest";
import { startScripted, testApi, type Api } from "../helpers/api";

let api: Api;
afterEach(async () => {
  await api?.close();
});

// Issue 43: every list is a page. Rows here share one timestamp, so only the cursor's tie-break keeps pages apart.
const SAME_INSTANT = new Date("2026-01-02T03:04:05.678Z");

type Page<T> = { rows: T[]; next: string | null };
const byS = <M extends { seq: number }>(rows: M[], seq: number) => rows.find((m) => m.seq === seq) as M;

/** Every page of a list, following its cursor; also checks that each page but the last is full. */
async function allPages<T>(read: (after: string | null) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  for (let i = 0; i < 100; i++) {
    const page: Page<T> = await read(after);
    out.push(...page.rows);
    if (page.next === null) return out;
    expect(page.rows).toHaveLength(limit);
    after = page.next;
  }
  throw new Error("the cursor never ended");
}

/**
 * Bad paging parameters are a 400 whose message names the parameter. `crafted`: cursors of the right shape with
 * what the database cannot take (a time past the last Date, a NUL in an id, an integer past 4 bytes), a 500 before.
 */
async function refusesBadParams(url: string, limit: string, after: string, tooBig: number, crafted: object[]) {
  const junkCursor = Buffer.from(JSON.stringify({ nope: 1 })).toString("base64url");
  const cursor = (c: object) => Buffer.from(JSON.stringify(c)).toString("base64url");
  for (const [query, name] of [
    ...crafted.map((c) => [`${after}=${cursor(c)}`, after] as const),
    [`${limit}=0`, limit],
    [`${limit}=abc`, limit],
    [`${limit}=${tooBig}`, limit],
    [`${after}=%25%25not-base64`, after],
    [`${after}=${junkCursor}`, after],
    [`${after}=`, after],
  ] as const) {
    const res = await api.call("GET", `${url}${url.includes("?") ? "&" : "?"}${query}`);
    expect([query, res.status]).toEqual([query, 400]);
    expect(res.body.error.message).toContain(name);
  }
}

describe("the team mailbox is a page", () => {
  it("pages an inbox (pending plan requests first), with filters, no duplicate and no gap; bad params are a 400", async () => {
    api = testApi();
    const lead = await startScripted(api, [], { title: "Lead" });
    const team = await api.call("POST", "/api/teams", { sessionId: lead, name: "Paged team" });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.team.id as string;
    const mate = await startScripted(api, [], { title: "Mate" });
    // 13 messages to the lead at one instant: plan requests (some answered) among plain messages, and 2 to a mate.
    const kinds = ["message", "plan_approval_request", "message", "plan_approval_request", "plan_approval_response"];
    for (let seq = 1; seq <= 15; seq++) {
      const type = kinds[seq % kinds.length] as string;
      await api.t.db.mailboxMessage.create({
        data: {
          id: `msg_${String(100 - seq)}`,
          teamId,
          seq,
          fromSession: mate,
          toSession: seq > 13 ? mate : lead,
          type,
          requestId: type === "plan_approval_request" ? `rev_${seq}` : null,
          payload: JSON.stringify({ text: `mail ${seq}` }),
          status: seq % 3 === 0 ? "answered" : seq % 3 === 1 ? "read" : "unread",
          createdAt: SAME_INSTANT,
        },
      });
    }
    type Mail = { id: string; seq: number; type: string; status: string; to: string };
    const inbox = (query: string) => async (after: string | null) => {
      const res = await api.call(
        "GET",
        `/api/teams/${teamId}/mailbox?${query}${after ? `&after=${encodeURIComponent(after)}` : ""}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { rows: res.body.messages as Mail[], next: res.body.next as string | null };
    };
    const pending = (m: Mail) => m.type === "plan_approval_request" && m.status !== "answered";
    for (const query of ["", "type=message", "status=pending", "status=read", `to=${mate}`]) {
      const whole = await inbox(`${query}&limit=200`)(null);
      expect(whole.next).toBeNull();
      const paged = await allPages(inbox(`${query}&limit=2`), 2);
      expect([query, paged.map((m) => m.seq)]).toEqual([query, whole.rows.map((m) => m.seq)]);
      expect(new Set(paged.map((m) => m.id)).size).toBe(paged.length);
      // Pending plan requests first, then the rest, each in team order.
      const want = [...whole.rows.filter(pending), ...whole.rows.filter((m) => !pending(m))].map((m) => m.seq);
      expect(whole.rows.map((m) => m.seq)).toEqual(want);
      expect(want).toEqual(
        [...want]
          .sort((a, b) => a - b)
          .sort((a, b) => Number(!pending(byS(whole.rows, a))) - Number(!pending(byS(whole.rows, b)))),
      );
    }
    const all = (await inbox("limit=200")(null)).rows;
    expect(all).toHaveLength(13);
    // Requests 1, 8, 11 and 13 wait (3 and 6 were answered); the rest follow in team order.
    expect(all.map((m) => m.seq)).toEqual([1, 8, 11, 13, 2, 3, 4, 5, 6, 7, 9, 10, 12]);
    expect((await inbox("type=message&limit=200")(null)).rows.every((m) => m.type === "message")).toBe(true);
    expect((await inbox(`to=${mate}&limit=200`)(null)).rows.map((m) => m.seq)).toEqual([14, 15]);
    // The default page is 50: all 13 and no next.
    expect(await inbox("")(null)).toMatchObject({ next: null, rows: all });
    await refusesBadParams(`/api/teams/${teamId}/mailbox`, "limit", "after", 201, [{ rank: 1, seq: 3_000_000_000 }]);
  });
});

describe("the audit log is a page", () => {
  it("pages the log newest first through acts of one instant, with filters; CSV links its next page", async () => {
    api = testApi();
    for (let i = 0; i < 11; i++)
      await api.t.db.auditEntry.create({
        data: {
          id: `aud_${String(i).padStart(3, "0")}`,
          at: i < 9 ? SAME_INSTANT : new Date(SAME_INSTANT.getTime() - i * 1000),
          name: "operator",
          credential: "operator",
          kind: i % 2 === 0 ? "paged.even" : "paged.odd",
          workspace: "/srv/a",
        },
      });
    type Entry = { id: string; kind: string };
    const log = (query: string) => async (after: string | null) => {
      const res = await api.call("GET", `/api/audit?${query}${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { rows: res.body.entries as Entry[], next: res.body.next as string | null };
    };
    const whole = await log("limit=1000")(null);
    expect(whole.next).toBeNull();
    // Newest first; acts of one instant by id, descending.
    expect(whole.rows.map((e) => e.id)).toEqual(
      [8, 7, 6, 5, 4, 3, 2, 1, 0, 9, 10].map((i) => `aud_${String(i).padStart(3, "0")}`),
    );
    for (const limit of [1, 3, 4]) {
      const paged = await allPages(log(`limit=${limit}`), limit);
      expect(paged.map((e) => e.id)).toEqual(whole.rows.map((e) => e.id));
    }
    const even = await allPages(log("kind=paged.even&limit=2"), 2);
    expect(even.map((e) => e.id)).toEqual(whole.rows.filter((e) => e.kind === "paged.even").map((e) => e.id));
    expect((await log("limit=11")(null)).next).toBeNull();

    // A CSV is one page too; its next page's address is in a Link header.
    const csv = await api.call("GET", "/api/audit?format=csv&limit=4");
    expect(csv.status).toBe(200);
    expect((csv.body as string).trim().split("\r\n")).toHaveLength(5);
    const link = /^<(\/api\/audit\?[^>]+)>; rel="next"$/.exec(csv.headers.get("link") ?? "");
    expect(link).not.toBeNull();
    const second = await api.call("GET", link?.[1] as string);
    // The second page starts at aud_004, the fifth newest (an even one).
    expect(
      (second.body as string)
        .trim()
        .split("\r\n")
        .slice(1, 3)
        .map((r) => r.split(",")[3]),
    ).toEqual(["paged.even", "paged.odd"]);
    expect((await api.call("GET", "/api/audit?format=csv&limit=1000")).headers.get("link")).toBeNull();
    await refusesBadParams("/api/audit", "limit", "after", 1001, [
      { at: 9e15, id: "x" },
      { at: 1, id: "a\u0000b" },
    ]);
  });
});

describe("a session's plan versions are a page", () => {
  it("pages plan versions newest first through plans and versions of one instant, each diffed against the one before", async () => {
    api = testApi();
    const id = await startScripted(api, [], { title: "Many versions" });
    // Three plans made at one instant, three versions each (also at that instant): only ids and versions order them.
    for (const planId of ["pln_b", "pln_a", "pln_c"]) {
      await api.t.db.plan.create({
        data: { id: planId, sessionId: id, slug: planId, filePath: `${planId}.md`, createdAt: SAME_INSTANT },
      });
      for (let version = 1; version <= 3; version++)
        await api.t.db.planVersion.create({
          data: {
            id: `${planId}_v${version}`,
            planId,
            version,
            content: `# ${planId}\n\n${Array.from({ length: version }, (_, i) => `${i + 1}. step`).join("\n")}\n`,
            filePath: `${planId}.md`,
            createdAt: SAME_INSTANT,
          },
        });
    }
    type Version = { planId: string; version: number; changes: unknown[] | null };
    const history = (query: string) => async (after: string | null) => {
      const url = `/api/sessions/${id}/history?${query}${after ? `&plansAfter=${encodeURIComponent(after)}` : ""}`;
      const res = await api.call("GET", url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        rows: res.body.history.plans as Version[],
        next: res.body.history.plansNext as string | null,
        total: res.body.history.totals.plans as number,
      };
    };
    const whole = await history("plansLimit=200")(null);
    expect(whole.next).toBeNull();
    expect(whole.total).toBe(9);
    const want = ["pln_c", "pln_b", "pln_a"].flatMap((p) => [3, 2, 1].map((v) => `${p}:${v}`));
    expect(whole.rows.map((v) => `${v.planId}:${v.version}`)).toEqual(want);
    for (const limit of [1, 2, 4]) {
      const paged = await allPages(history(`plansLimit=${limit}`), limit);
      expect(paged.map((v) => `${v.planId}:${v.version}`)).toEqual(want);
      // A page's oldest version is still diffed against the one before it, which the next page shows.
      expect(paged.map((v) => v.changes)).toEqual(whole.rows.map((v) => v.changes));
    }
    expect(whole.rows.map((v) => v.changes !== null)).toEqual(want.map((k) => !k.endsWith(":1")));
    // The default page is 20: all 9, with the total.
    expect(await history("")(null)).toMatchObject({ next: null, total: 9 });
    const first = await history("plansLimit=4")(null);
    expect(first.total).toBe(9);
    await refusesBadParams(`/api/sessions/${id}/history`, "plansLimit", "plansAfter", 201, [
      { k: "own", at: 9e15, planId: "p", version: 1 },
      { k: "own", at: 1, planId: "p", version: 3_000_000_000 },
      { k: "fork", planId: "a\u0000", version: 1 },
    ]);
  });
});
