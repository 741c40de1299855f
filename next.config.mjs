// Plain JavaScript, not TypeScript: `next start` would otherwise load the SWC compiler (about 30 MB resident) into
// the running server just to read this file (Next checks its shape when it loads it).
import { createRequire } from "node:module";

const answerHeaders = createRequire(import.meta.url)("./lib/http/answer-headers.json");
// The same headers as lib/http/security-headers.ts's API_SECURITY_HEADERS (security-headers.test.ts compares them).
const apiHeaders = { "Content-Security-Policy": answerHeaders.apiContentSecurityPolicy, ...answerHeaders.everyAnswer };

/** @type {import("next").NextConfig} */
const config = {
  // better-sqlite3 is native and Prisma's generated client loads wasm at run time: keep both out of the bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/client",
    // One copy of the query builder for every route and the instrumentation hook (a transaction made by one copy
    // must be recognised by the others).
    "kysely",
    "mvdan-sh",
    "re2-wasm",
  ],
  poweredByHeader: false,
  typedRoutes: false,
  // A route's code is loaded by its first request, not every route's at start: an idle server holds only what it
  // has served (issue 43: 216 MB idle with the preload, against 87 MB for an empty Next).
  experimental: { preloadEntriesOnStart: false },
  // The API is not behind the proxy (its routes guard themselves): its answers get their headers here.
  async headers() {
    return [{ source: "/api/:path*", headers: Object.entries(apiHeaders).map(([key, value]) => ({ key, value })) }];
  },
};

export default config;
