// The OpenID provider for e2e/sso.spec.ts, started by playwright.config.ts before Plangate (whose env names it as
// the issuer). Runs until Playwright stops it.
import { startOidcProvider } from "../tests/helpers/oidc-provider";
import { e2eOidc } from "./operator";

const provider = await startOidcProvider(e2eOidc(Number(process.env.E2E_PORT ?? 3100)));
console.log(`oidc-provider listening at ${provider.issuer}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void provider.close().then(() => process.exit(0));
  });
