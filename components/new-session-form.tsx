"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { keepTyped } from "./keep-typed";
import { postJson } from "./post-json";

type Props = { workspaces: string[]; agents: string[]; models: string[]; defaultModel: string };

/** What each agent is, beside its name: who does the work, and what it may ever do (plan mode is separate). */
const AGENT_WORDS: Record<string, string> = {
  build: "does the work: reads, edits, runs commands",
  plan: "never edits: reads and writes only a plan file",
};

/** Title, workspace (from the allowed roots), agent and model; starts in plan mode unless unticked. */
export function NewSessionForm({ workspaces, agents, models, defaultModel }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (form: FormData) => {
    setBusy(true);
    setError(null);
    const title = String(form.get("title") ?? "").trim();
    const body = {
      ...(title ? { title } : {}),
      workspace: String(form.get("workspace")),
      agent: String(form.get("agent")),
      model: String(form.get("model")),
      mode: form.get("plan") ? "plan" : "default",
    };
    const r = await postJson<{ session: { id: string } }>("/api/sessions", body);
    if (!r.ok) {
      setError(r.message);
      setBusy(false);
      return false;
    }
    router.push(`/sessions/${r.data.session.id}`);
    return true;
  };
  const field =
    "mt-1 w-full rounded border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <form
      data-testid="new-session-form"
      aria-labelledby="new-session-heading"
      className="mb-6 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
      onSubmit={keepTyped(submit, false)}
    >
      <h2 id="new-session-heading" className="mb-3 font-semibold">
        New session
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="text-sm">
          Title
          <input
            name="title"
            data-testid="new-title"
            maxLength={200}
            placeholder="What is this about?"
            className={field}
          />
        </label>
        <label className="text-sm">
          Workspace
          <select name="workspace" data-testid="new-workspace" required className={field}>
            {workspaces.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Agent (who does the work)
          <select
            name="agent"
            data-testid="new-agent"
            className={field}
            defaultValue="build"
            aria-describedby="agent-vs-plan-mode"
          >
            {agents.map((a) => (
              <option key={a} value={a}>
                {AGENT_WORDS[a] ? `${a}: ${AGENT_WORDS[a]}` : a}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Model
          <input
            name="model"
            data-testid="new-model"
            list="model-options"
            defaultValue={defaultModel}
            required
            className={field}
          />
          <datalist id="model-options">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </label>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="plan"
            data-testid="new-plan"
            defaultChecked
            aria-describedby="agent-vs-plan-mode"
          />{" "}
          Start in plan mode: plan first, work after you approve
        </label>
        <button
          type="submit"
          data-testid="create-session"
          disabled={busy || workspaces.length === 0}
          className="ml-auto rounded bg-zinc-800 px-3 py-1.5 text-sm text-white disabled:opacity-50 dark:bg-zinc-200 dark:text-zinc-900"
        >
          {busy ? "Starting…" : "Start session"}
        </button>
      </div>
      <p
        id="agent-vs-plan-mode"
        data-testid="agent-vs-plan-mode"
        className="mt-2 text-xs text-zinc-600 dark:text-zinc-400"
      >
        The agent is who works and what it may ever do. Plan mode is a phase Plangate enforces for any agent: it may
        only read (and write its plan) until you approve a plan, then it carries it out; /plan in the message box enters
        it later.
      </p>
      {workspaces.length === 0 ? (
        <p className="mt-2 text-sm">No workspace folders under the allowed roots (PLANGATE_WORKSPACE_ROOTS).</p>
      ) : null}
      {error ? (
        <p role="alert" data-testid="new-session-error" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
