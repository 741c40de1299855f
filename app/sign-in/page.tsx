import { headers } from "next/headers";
import { CredentialsForm } from "@/components/credentials-form";
import { LoopbackNotice } from "@/components/loopback-notice";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const host = (await headers()).get("host") ?? "";
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Sign in to Plangate</h1>
      <LoopbackNotice host={host} />
      <CredentialsForm
        action="/api/auth/sign-in/email"
        fields={["email", "password"]}
        submit="Sign in"
        next={next ?? "/"}
        failed401="That email and password do not match an account."
      />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No account yet? An owner adds you (People, or <code>npm run user -- add</code>) and sends you a link.
      </p>
    </section>
  );
}
