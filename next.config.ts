import type { NextConfig } from "next";

const config: NextConfig = {
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
  // The proxy (proxy.ts) sees every request; it must pass the largest body a route accepts (the 50 MB import)
  // whole, so that the route answers 413 rather than reading a cut-off body as invalid JSON.
  experimental: { proxyClientMaxBodySize: "64mb" },
};

export default config;
