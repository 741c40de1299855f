import { LinkSlackButton } from "@/components/link-slack-button";
import { getDb } from "@/lib/db/client";
import { pageActor } from "@/lib/http/page-actor";
import { describeLinkCode } from "@/lib/notify/link-slack";

export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Where Slack's "link your account" message leads: the person, signed in, confirms the Slack account is theirs. */
export default async function LinkSlackPage({ searchParams }: { searchParams: Search }) {
  const actor = await pageActor();
  const code = (await searchParams).code;
  const slackUser = typeof code === "string" ? await describeLinkCode(getDb(), code) : null;
  return (
    <section aria-labelledby="slack-title" className="flex flex-col gap-3">
      <h1 id="slack-title" className="text-xl font-semibold">
        Link your Slack account
      </h1>
      {actor.kind !== "person" ? (
        <p className="text-sm">Sign in as yourself to link a Slack account: a token cannot.</p>
      ) : typeof code !== "string" ? (
        <p className="text-sm">
          This page needs the link Slack showed you. Press a Plangate button in Slack to get one.
        </p>
      ) : (
        <>
          <p className="text-sm">
            You are signed in as {actor.name}. Link only if you pressed the button in Slack yourself just now: from then
            on, that Slack account&apos;s Plangate buttons decide as you, with your roles.
          </p>
          <LinkSlackButton code={code} />
        </>
      )}
    </section>
  );
}
