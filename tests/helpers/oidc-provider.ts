import { generateKeyPairSync } from "node:crypto";
import type { Server } from "node:http";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

/**
 * A real OpenID provider (oidc-provider 8.8.1) on loopback for the SSO tests: one confidential client whose
 * redirect URIs are Plangate's callback, and a few accounts. Its login page is oidc-provider's dev interaction
 * (any password; the login names the account), and consent is pre-agreed for our client, as a company's IdP
 * does for its own apps, so a sign-in is: Plangate's button → the provider's login → back to Plangate.
 */
export type TestAccount = { sub: string; email: string; emailVerified: boolean; name: string };

export const TEST_ACCOUNTS: Record<string, TestAccount> = {
  // Added by an owner (as "Grace Hopper"): links and comes in with her roles and the owner's spelling of her name.
  grace: { sub: "idp-grace", email: "Grace@Example.com", emailVerified: true, name: "Grace from the IdP" },
  // Vouched for by the provider, but no owner added eve@example.com.
  eve: { sub: "idp-eve", email: "eve@example.com", emailVerified: true, name: "Eve" },
  // carol@example.com was added, but the provider does not vouch for this email: it must not link to Carol.
  mallory: { sub: "idp-mallory", email: "carol@example.com", emailVerified: false, name: "Mallory" },
  // Added, then deactivated.
  dora: { sub: "idp-dora", email: "dora@example.com", emailVerified: true, name: "Dora" },
};

export type RunningProvider = { issuer: string; close: () => Promise<void> };

export type ProviderOptions = { issuer: string; clientId: string; clientSecret: string; redirectUris: string[] };

/** Starts the provider at `issuer` (an http://127.0.0.1:<port> URL) for Plangate's callback(s). */
export async function startOidcProvider(opts: ProviderOptions): Promise<RunningProvider> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signing = privateKey.export({ format: "jwk" });
  const config: Configuration = {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [{ ...signing, kid: "e2e", use: "sig", alg: "RS256" }] },
    cookies: { keys: ["plangate-e2e-oidc-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Claims in the ID token of a code flow (as Google, Okta and Keycloak do): Plangate reads only the ID token.
    conformIdTokenClaims: false,
    pkce: { required: () => true, methods: ["S256"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const account = TEST_ACCOUNTS[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: account.sub,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
        }),
      };
    },
    // Consent is pre-agreed for the one first-party client: a grant of the scopes it asks for.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const existing = ctx.oidc.session?.grantIdFor(clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope("openid email profile");
      grant.addOIDCClaims(["email", "email_verified", "name"]);
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(opts.issuer, config);
  const { hostname, port } = new URL(opts.issuer);
  const server: Server = await new Promise((resolve, reject) => {
    const s = provider.listen(Number(port), hostname, () => resolve(s));
    s.once("error", reject);
  });
  return {
    issuer: opts.issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
