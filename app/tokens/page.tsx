import { pageActor } from "@/lib/http/page-actor";
import { getDb } from "@/lib/db/client";
import { tokensFor } from "@/lib/auth/manage-tokens";
import { RevokeTokenButton, TokenForm } from "@/components/token-form";

export const dynamic = "force-dynamic";

const when = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 16) : "never");

/** A person's tokens (an owner sees everyone's): make one, see when each was last used, revoke. */
export default async function TokensPage() {
  const actor = await pageActor();
  if (actor.kind !== "person")
    return <p data-testid="tokens-not-person">Tokens belong to a person: sign in with your account to make yours.</p>;
  const tokens = await tokensFor(getDb(), actor);
  return (
    <section aria-labelledby="tokens-title" className="flex flex-col gap-4">
      <h1 id="tokens-title" className="text-xl font-semibold">
        Tokens
      </h1>
      <p className="text-sm">
        An <strong>agent</strong> token is what <code>plangate connect</code> saves for Claude Code or OpenCode: it
        submits that agent's plans and asks and waits for them, and never decides one. A <strong>reviewer</strong> token
        answers on your behalf, recorded as you via the token.
      </p>
      <TokenForm />
      <table className="text-sm" data-testid="tokens-table">
        <thead>
          <tr className="text-left">
            <th className="pr-4">Name</th>
            <th className="pr-4">Scope</th>
            <th className="pr-4">Made</th>
            <th className="pr-4">Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id} data-testid={`token-${t.name}`}>
              <td className="pr-4">{t.name}</td>
              <td className="pr-4">{t.scope}</td>
              <td className="pr-4">{when(t.createdAt)}</td>
              <td className="pr-4">{when(t.lastUsedAt)}</td>
              <td>{t.revokedAt ? `revoked ${when(t.revokedAt)}` : <RevokeTokenButton id={t.id} name={t.name} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
