import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { listSessions } from "@/lib/session/list-sessions";
import { listWorkspaces } from "@/lib/workspace/list-workspaces";
import { ensureSampleWorkspace } from "@/lib/workspace/ensure-sample-workspace";
import { SessionList } from "@/components/session-list";
import { NewSessionForm } from "@/components/new-session-form";
import { SandboxBanner } from "@/components/sandbox-banner";
import { AutoRefresh } from "@/components/auto-refresh";

export const dynamic = "force-dynamic";

const PRIMARY_AGENTS = ["build", "plan"];

export default async function HomePage() {
  const env = getEnv();
  const root = env.workspaceRoots[0];
  if (root) ensureSampleWorkspace(root);
  const { sessions } = await listSessions(getDb(), { limit: 50 });
  const models = [...new Set([env.PLANGATE_MODEL, "offline"])];
  return (
    <section aria-labelledby="sessions-heading">
      <AutoRefresh />
      <SandboxBanner />
      <h1 id="sessions-heading" className="mb-4 text-xl font-semibold">
        Sessions
      </h1>
      <NewSessionForm workspaces={listWorkspaces(env.workspaceRoots)} agents={PRIMARY_AGENTS} models={models} defaultModel={env.PLANGATE_MODEL} />
      <SessionList sessions={sessions} />
    </section>
  );
}
