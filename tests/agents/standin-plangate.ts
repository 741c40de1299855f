// A stand-in for Plangate's external plan-review API (POST /api/external/plan-reviews, GET …/:id?wait=), so the
// agent protocol tests do not depend on the real server. A test decides each review with `decide`.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReviewStatus = "pending" | "approved" | "rejected" | "abandoned" | "answered_elsewhere";
export type StandinReview = {
  id: string;
  body: { agent: string; externalSessionId: string; cwd: string; plan: string; planFilePath?: string };
  decision: { status: ReviewStatus; plan: string; edited: boolean; mode?: string; message?: string };
  polls: number;
};
export type Decision = { status: Exclude<ReviewStatus, "pending">; plan?: string; mode?: string; message?: string };

export type StandinPlangate = {
  url: string;
  reviews: StandinReview[];
  /** Requests refused for a missing or wrong token. */
  unauthorized: number;
  /** When set, POST /api/external/plan-reviews answers with this (e.g. 403, cwd outside the workspace roots). */
  refuse: { status: number; error: string } | null;
  waitForReview: (index?: number, timeoutMs?: number) => Promise<StandinReview>;
  decide: (id: string, d: Decision) => void;
  close: () => Promise<void>;
};

/** `maxWaitSeconds` caps `?wait=` (the real server allows 60), so a test sees the client poll again. */
export async function startStandinPlangate(
  opts: { token?: string; maxWaitSeconds?: number } = {},
): Promise<StandinPlangate> {
  const reviews: StandinReview[] = [];
  const listeners = new Set<() => void>();
  const notify = () => [...listeners].forEach((l) => l());
  const state: { unauthorized: number; refuse: { status: number; error: string } | null } = {
    unauthorized: 0,
    refuse: null,
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  // Errors in the shape of Plangate's error registry, as the real server sends them.
  const fail = (res: http.ServerResponse, status: number, code: string, message: string) =>
    json(res, status, { error: { code, message } });
  const view = (r: StandinReview) => ({
    ...r.decision,
    ...(r.decision.message === undefined ? {} : { message: r.decision.message }),
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) {
        state.unauthorized++;
        fail(res, 401, "unauthorized", "Sign in or send a token.");
        return;
      }
      const u = new URL(req.url ?? "/", "http://x");
      if (req.method === "POST" && u.pathname === "/api/external/plan-reviews") {
        if (state.refuse) {
          fail(res, state.refuse.status, "forbidden", state.refuse.error);
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as StandinReview["body"];
        const review: StandinReview = {
          id: `rev_${reviews.length + 1}`,
          body,
          decision: { status: "pending", plan: body.plan, edited: false },
          polls: 0,
        };
        reviews.push(review);
        notify();
        json(res, 201, { reviewId: review.id, sessionId: `ses_standin_${body.externalSessionId}` });
        return;
      }
      const m = /^\/api\/external\/plan-reviews\/([^/]+)$/.exec(u.pathname);
      const review = m && reviews.find((r) => r.id === decodeURIComponent(m[1] ?? ""));
      if (req.method !== "GET" || !review) {
        fail(res, 404, "not_found", "No such review.");
        return;
      }
      review.polls++;
      const waitMs = Math.min(opts.maxWaitSeconds ?? 60, Number(u.searchParams.get("wait") ?? 0)) * 1000;
      if (review.decision.status !== "pending" || waitMs <= 0) {
        json(res, 200, view(review));
        return;
      }
      const done = () => {
        if (review.decision.status === "pending" && !timedOut) return;
        listeners.delete(done);
        clearTimeout(timer);
        if (!res.writableEnded) json(res, 200, view(review));
      };
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        done();
      }, waitMs);
      listeners.add(done);
      res.on("close", () => {
        listeners.delete(done);
        clearTimeout(timer);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    reviews,
    get unauthorized() {
      return state.unauthorized;
    },
    get refuse() {
      return state.refuse;
    },
    set refuse(value) {
      state.refuse = value;
    },
    waitForReview: (index = 0, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const r = reviews[index];
          if (!r) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(r);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`stand-in Plangate: no review #${index + 1} within ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    decide: (id, d) => {
      const r = reviews.find((x) => x.id === id);
      if (!r) throw new Error(`no review ${id}`);
      const plan = d.plan ?? r.body.plan;
      r.decision = {
        status: d.status,
        plan,
        edited: plan !== r.body.plan,
        ...(d.mode ? { mode: d.mode } : {}),
        ...(d.message ? { message: d.message } : {}),
      };
      notify();
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
