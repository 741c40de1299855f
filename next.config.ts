import type { NextConfig } from "next";
import { API_SECURITY_HEADERS } from "./lib/http/security-headers";

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
  // The API is not behind the proxy (its routes guard themselves): its answers get their headers here.
  async headers() {
    return [
      { source: "/api/:path*", headers: Object.entries(API_SECURITY_HEADERS).map(([key, value]) => ({ key, value })) },
    ];
  },
};

export default config;
