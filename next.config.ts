import type { NextConfig } from "next";

const config: NextConfig = {
  // better-sqlite3 is native and Prisma's generated client loads wasm at run time: keep both out of the bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client", "mvdan-sh"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default config;
