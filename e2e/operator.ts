// The specs act as the operator (PLANGATE_TOKEN) on every request, pages included: set on the server the
// config starts and on every browser context (Playwright applies the config's headers to hand-made ones too).
export const E2E_OPERATOR_TOKEN = "plangate-e2e-operator-token";
export const OPERATOR_HEADERS = { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` };

/**
 * The test OpenID provider beside the e2e server (e2e/oidc-server.ts): its own port, E2E_OIDC_PORT or the
 * server's plus 1000, so runs on different E2E_PORTs do not collide; Plangate's callback on both loopback names.
 */
export function e2eOidc(port: number): {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
} {
  const own = Number(process.env.E2E_OIDC_PORT ?? port + 1000);
  return {
    issuer: `http://127.0.0.1:${own}`,
    clientId: "plangate-e2e",
    clientSecret: "plangate-e2e-client-secret-0123456789",
    redirectUris: ["127.0.0.1", "localhost"].map((h) => `http://${h}:${port}/api/auth/callback/oidc`),
  };
}
