import { defineConfig } from "@playwright/test";
import { E2E_OPERATOR_TOKEN, OPERATOR_HEADERS, e2eOidc } from "./e2e/operator";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const OIDC = e2eOidc(PORT);

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    extraHTTPHeaders: OPERATOR_HEADERS,
    trace: "retain-on-failure",
    launchOptions: {
      // Playwright cannot download its browsers offline: use Debian's chromium.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      // A real OpenID provider on loopback for sso.spec.ts, up before Plangate reads its discovery document.
      command: "npx tsx e2e/oidc-server.ts",
      url: `${OIDC.issuer}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_PORT: String(PORT), NODE_OPTIONS: "" },
    },
    {
      // The real `npm start` path (migrate, build when stale, next start) on its own port and data folder.
      command: "rm -rf data/e2e && npm start",
      url: `http://127.0.0.1:${PORT}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        // Its own data folder, and so its own database (data/e2e/plangate.db: no DATABASE_URL, as in a plain install).
        PLANGATE_DATA_DIR: "./data/e2e",
        DATABASE_URL: "",
        PLANGATE_ALLOW_SCRIPTED: "1",
        PLANGATE_TOKEN: E2E_OPERATOR_TOKEN,
        // The specs run with the react-server condition (they seed databases through lib/db, whose "server-only"
        // marker then resolves to its empty module); the server must not, or React's server build would render pages.
        NODE_OPTIONS: "",
        PLANGATE_OIDC_ISSUER: OIDC.issuer,
        PLANGATE_OIDC_CLIENT_ID: OIDC.clientId,
        PLANGATE_OIDC_CLIENT_SECRET: OIDC.clientSecret,
        PLANGATE_OIDC_NAME: "Test IdP",
      },
    },
  ],
});
