import { CredentialsForm } from "@/components/credentials-form";
import { getDb } from "@/lib/db/client";
import { findOpenLink } from "@/lib/db/people/links";

export const dynamic = "force-dynamic";

const TITLE = { setup: "Create the owner account", invite: "Join Plangate", reset: "Set a new password" };

/** A one-time link: setup (the first start), an invite, a reset. The link itself is the credential. */
export default async function LinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await findOpenLink(getDb(), token);
  if (!link)
    return <p data-testid="link-closed">This link was used already or has expired. Ask an owner for a new one.</p>;
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">{TITLE[link.purpose]}</h1>
      {link.purpose === "invite" && link.role && (
        <p className="text-sm" data-testid="link-invite">
          You are invited as a <strong>{link.role}</strong> over <code>{link.root ?? "/"}</code>
          {link.email ? (
            <>
              {" "}
              with the email <strong>{link.email}</strong>
            </>
          ) : null}
          .
        </p>
      )}
      <CredentialsForm
        action={`/api/links/${encodeURIComponent(token)}`}
        fields={
          link.purpose === "reset" ? ["password"] : link.email ? ["name", "password"] : ["name", "email", "password"]
        }
        submit={link.purpose === "reset" ? "Set password and sign in" : "Create account and sign in"}
        next="/"
        {...(link.email ? { fixedEmail: link.email } : {})}
      />
    </section>
  );
}
