// The two live streams (a session's events, a tab's changes) are answered beside Next's request handler, by the same
// route handlers (app/api/changes/route.ts, app/api/sessions/[id]/stream/route.ts: the same guard, sign-in and
// rights). Through Next each open stream held about 80 KB (its request and response wrappers, the web stream piped
// into the response, the request's async contexts) and 1,000 took seconds to open (issue 43); here a stream costs
// what its route needs. Plain JavaScript, as scripts/serve.mjs is.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const answerHeaders = JSON.parse(fs.readFileSync(path.join(root, "lib", "http", "answer-headers.json"), "utf8"));
// What next.config.mjs gives every API answer.
const API_HEADERS = { "Content-Security-Policy": answerHeaders.apiContentSecurityPolicy, ...answerHeaders.everyAnswer };

const PATHS = [
  { name: "changes", pattern: /^\/api\/changes$/ },
  { name: "stream", pattern: /^\/api\/sessions\/([^/]+)\/stream$/ },
];

/** Which stream a request asks for (a GET of one of the two paths), or null: Next answers everything else. */
export function streamRouteOf(req) {
  if (req.method !== "GET" || typeof req.url !== "string") return null;
  const query = req.url.indexOf("?");
  const pathname = query === -1 ? req.url : req.url.slice(0, query);
  for (const { name, pattern } of PATHS) {
    const m = pattern.exec(pathname);
    if (!m) continue;
    // Decoded as Next decodes a route's params; a segment that does not decode is Next's to refuse.
    try {
      return { name, id: m[1] === undefined ? undefined : decodeURIComponent(m[1]) };
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Answers the stream with its route handler, which the instrumentation hook registered (instrumentation.ts): false
 * when it has not (the server is still starting), and Next answers instead.
 */
export async function serveStream(req, res, route) {
  const load = globalThis.plangateStreamRoutes;
  if (typeof load !== "function") return false;
  const handlers = await load();
  const handler = handlers[route.name];
  // The response's close: the client went away (or the answer ended), whether or not the request was read.
  const aborted = new AbortController();
  const abort = () => aborted.abort();
  res.once("close", abort);
  let answer;
  try {
    answer = await handler(toRequest(req, aborted.signal), { params: Promise.resolve({ id: route.id }) });
  } catch {
    // A Host that makes no URL: the guard would have refused it too.
    const error = { code: "bad_request", message: "A request this server cannot read." };
    answer = Response.json({ error }, { status: 400 });
  }
  res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), ...API_HEADERS });
  if (!answer.body) {
    res.end();
    return true;
  }
  // Written at the client's pace (a full buffer waits for "drain"); its going away ends the route's stream (the abort).
  const reader = answer.body.getReader();
  try {
    for (let next = await reader.read(); !next.done && !res.destroyed; next = await reader.read())
      if (!res.write(next.value)) await drained(res);
  } catch {
    // The client went away mid-write.
  } finally {
    abort();
    reader.cancel().catch(() => undefined);
    res.end();
  }
  return true;
}

/** Resolves when the response can take more, or is gone; leaves no listener behind either way. */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** The headers every API answer carries, for an answer made here (scripts/serve.mjs's 500). */
export const apiHeaders = () => ({ ...API_HEADERS });

/**
 * What the stream routes read of a request (the method, the URL, the headers, the abort signal), from what Node
 * received: the headers as Node reads them (a repeated Authorization or Host is the first one, as Next sees it), the
 * URL on the Host header (the routes' guard checks that Host against the allowed ones; the path and query are all a
 * stream route reads of the URL). Not a web Request: constructing one (its own signal following this one, the
 * header checks) was a tenth of a stream's opening (issue 43), and these GETs have no body to read.
 */
function toRequest(req, signal) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const url = new URL(req.url, `http://${req.headers.host ?? "localhost"}`).href;
  return { method: "GET", url, headers, signal };
}
