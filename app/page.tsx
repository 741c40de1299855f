import { getDb } from "@/lib/db/client";
import { listSessions } from "@/lib/session/list-sessions";
import { SessionList } from "@/components/session-list";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const { sessions } = await listSessions(getDb(), { limit: 50 });
  return (
    <section aria-labelledby="sessions-heading">
      <h1 id="sessions-heading" className="mb-4 text-xl font-semibold">
        Sessions
      </h1>
      <SessionList sessions={sessions} />
    </section>
  );
}
