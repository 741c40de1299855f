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
    if (m) return { name, id: m[1] };
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
  const aborted = new AbortController();
  const abort = () => aborted.abort();
  req.once("close", abort);
  res.once("close", abort);
  let answer;
  try {
    answer = await handler(toRequest(req, aborted.signal), { params: Promise.resolve({ id: route.id }) });
  } catch {
    // A Host that makes no URL: the guard would have refused it too.
    answer = Response.json(
      { error: { code: "bad_request", message: "A request this server cannot read." } },
      {
        status: 400,
      },
    );
  }
  const headers = { ...Object.fromEntries(answer.headers), ...API_HEADERS };
  res.writeHead(answer.status, headers);
  if (!answer.body) {
    res.end();
    return true;
  }
  try {
    for await (const chunk of answer.body) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } catch {
    // The client went away mid-write: the route's stream ends on the abort.
  } finally {
    abort();
    res.end();
  }
  return true;
}

/** A web Request of what Node received: the URL from the Host header (as Next builds it), every header as sent. */
function toRequest(req, signal) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = new URL(req.url, `http://${req.headers.host ?? "localhost"}`);
  return new Request(url, { method: "GET", headers, signal });
}
