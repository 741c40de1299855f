import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript (scripts/serve.mjs runs with no TypeScript loader), checked by this test.
import { streamRouteOf } from "./stream-routes.mjs";

// Which requests scripts/serve.mjs answers beside Next's router: only a GET of one of the two live streams' exact
// paths, the session's id decoded as Next decodes a route's params. Anything else is Next's, so its router, 404s
// and redirects (a trailing slash) stay as they were.
describe("streamRouteOf", () => {
  it.each([
    ["GET", "/api/changes", { name: "changes", id: undefined }],
    ["GET", "/api/changes?since=1700000000000", { name: "changes", id: undefined }],
    ["GET", "/api/sessions/ses_abc/stream", { name: "stream", id: "ses_abc" }],
    ["GET", "/api/sessions/ses%5Fabc/stream?after=3", { name: "stream", id: "ses_abc" }],
    ["GET", "/api/sessions/%E0%A4%A/stream", null],
    ["GET", "/api/sessions/a/b/stream", null],
    ["GET", "/api/sessions//stream", null],
    ["GET", "/api/changes/", null],
    ["GET", "/api//changes", null],
    ["GET", "/API/changes", null],
    ["GET", "http://evil.example/api/changes", null],
    ["HEAD", "/api/changes", null],
    ["POST", "/api/sessions/ses_abc/stream", null],
    ["GET", "/api/sessions/ses_abc/events", null],
  ])("%s %s", (method, url, expected) => {
    expect(streamRouteOf({ method, url })).toEqual(expected);
  });
});
