import { headers } from "next/headers";
import { CredentialsForm } from "@/components/credentials-form";
import { isIpHost, LoopbackNotice } from "@/components/loopback-notice";
import { PasskeySignInButton } from "@/components/passkey-sign-in-button";
import { SsoButton } from "@/components/sso-button";
import { ssoErrorMessage } from "@/lib/auth/rules/sso";
import { ssoSettings } from "@/lib/auth/sso-plugins";

export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string | string[] }>;
}) {
  const { next, error } = await searchParams;
  const host = (await headers()).get("host") ?? "";
  const sso = ssoSettings();
  // Single sign-on comes back here with ?error= when it refused someone: our sentence, never the provider's.
  const ssoError = sso ? ssoErrorMessage(typeof error === "string" ? error : undefined) : null;
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Sign in to Plangate</h1>
      <LoopbackNotice host={host} />
      {ssoError && (
        <p role="alert" className="max-w-sm text-sm text-red-700 dark:text-red-400" data-testid="sso-error">
          {ssoError}
        </p>
      )}
      {sso && <SsoButton name={sso.name} next={next ?? "/desk"} />}
      <CredentialsForm
        action="/api/auth/sign-in/email"
        fields={["email", "password"]}
        submit="Sign in"
        next={next ?? "/desk"}
        failed401="That email and password do not match an account."
      />
      {!isIpHost(host) && <PasskeySignInButton next={next ?? "/desk"} />}
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No account yet? An owner adds you (People, or <code>npm run user -- add</code>) and sends you a link.
      </p>
    </section>
  );
}
