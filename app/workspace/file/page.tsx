import Link from "next/link";
import { authorise } from "@/lib/auth/authorise";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { pageActor } from "@/lib/http/page-actor";
import { checkWorkspace } from "@/lib/workspace/check-workspace";
import { readWorkspaceFile, type WorkspaceFile } from "@/lib/workspace/read-workspace-file";

export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : "");

/** A file a plan names, as it is in the workspace now: read-only, text only, for whoever may read the workspace. */
export default async function WorkspaceFilePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await pageActor();
  const params = await searchParams;
  const requested = one(params.file);
  let file: WorkspaceFile;
  let workspace = "";
  try {
    workspace = checkWorkspace(one(params.path), getEnv().workspaceRoots);
    authorise(actor, "read", workspace);
    file = await readWorkspaceFile(workspace, requested);
  } catch (error) {
    file = { status: "refused", reason: error instanceof AppError ? error.message : "This file cannot be shown." };
  }
  return (
    <section aria-labelledby="file-title" className="flex flex-col gap-2">
      <h1 id="file-title" className="text-xl font-semibold break-all">
        {file.status === "ok" ? file.relative : requested || "A file"}
      </h1>
      {workspace ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          In the workspace <code className="break-all">{workspace}</code>, as it is now (not as the plan will leave it).
        </p>
      ) : null}
      {file.status === "ok" ? (
        <>
          {file.truncated ? (
            <p data-testid="file-truncated" className="text-sm">
              Only the first 256 KiB of its {Math.ceil(file.size / 1024).toLocaleString("en")} KiB are shown.
            </p>
          ) : null}
          <pre
            data-testid="workspace-file"
            tabIndex={0}
            className="max-h-[70vh] overflow-auto rounded bg-zinc-100 p-3 text-xs dark:bg-zinc-900"
          >
            {file.text}
          </pre>
        </>
      ) : (
        <p role="alert" data-testid="file-refused">
          {file.reason}
        </p>
      )}
      <Link href={`/workspace?path=${encodeURIComponent(workspace)}`} className="text-sm underline">
        Workspace settings
      </Link>
    </section>
  );
}
