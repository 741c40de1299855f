"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendJson } from "./post-json";

type PathRule = { patterns: string[]; reviewers: string[]; approvals: number };
export type PolicyFormValue = {
  approvals: number;
  allowSelfApproval: boolean;
  paths: PathRule[];
  teams: Record<string, string[]>;
};

// One rule per line: `patterns… reviewers… [xN]`, e.g. `prisma/migrations/* team:db x2`; a word with an @ or a
// team: prefix is a reviewer, the rest are patterns.
const ruleLine = (r: PathRule) =>
  [...r.patterns, ...r.reviewers, ...(r.approvals > 1 ? [`x${r.approvals}`] : [])].join(" ");
const teamLine = ([name, members]: [string, string[]]) => `${name}: ${members.join(", ")}`;

function parseRules(text: string): PathRule[] {
  return text
    .split("\n")
    .map((l) => l.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0)
    .map((words) => {
      const count = words.find((w) => /^x\d+$/.test(w));
      const reviewers = words.filter((w) => w.includes("@") || w.startsWith("team:"));
      const patterns = words.filter((w) => w !== count && !reviewers.includes(w));
      return { patterns, reviewers, approvals: count ? Number(count.slice(1)) : 1 };
    });
}

function parseTeams(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split("\n")) {
    const [name, members = ""] = line.split(":");
    if (name?.trim()) out[name.trim()] = members.split(/[\s,]+/).filter(Boolean);
  }
  return out;
}

/** An owner edits the review policy of one workspace (or root); what they typed stays if the server refuses it. */
export function ReviewPolicyForm({ workspace, initial }: { workspace: string; initial: PolicyFormValue }) {
  const router = useRouter();
  const [approvals, setApprovals] = useState(String(initial.approvals));
  const [self, setSelf] = useState(initial.allowSelfApproval);
  const [rules, setRules] = useState(initial.paths.map(ruleLine).join("\n"));
  const [teams, setTeams] = useState(Object.entries(initial.teams).map(teamLine).join("\n"));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function save() {
    const result = await sendJson("PUT", "/api/policies", {
      workspace,
      approvals: Number(approvals),
      allowSelfApproval: self,
      paths: parseRules(rules),
      teams: parseTeams(teams),
    });
    setMessage(result.ok ? { ok: true, text: "Saved." } : { ok: false, text: result.message });
    if (result.ok) router.refresh();
  }

  const field = "rounded border border-zinc-400 p-2 font-mono text-sm dark:bg-zinc-900";
  return (
    <form
      className="flex flex-col gap-2"
      data-testid="policy-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="flex items-center gap-2 text-sm">
        Approvals every plan needs
        <input
          type="number"
          min={1}
          max={20}
          value={approvals}
          onChange={(e) => setApprovals(e.target.value)}
          data-testid="policy-approvals"
          className={`${field} w-20`}
        />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={self} onChange={(e) => setSelf(e.target.checked)} data-testid="policy-self" />
        The person who started a session may approve its plan
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Path rules, one per line: patterns, then reviewers (emails or team:name), then xN for N approvals
        <textarea
          rows={3}
          value={rules}
          onChange={(e) => setRules(e.target.value)}
          data-testid="policy-rules"
          className={field}
          placeholder="prisma/migrations/* team:db"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Teams, one per line: name: emails
        <textarea
          rows={2}
          value={teams}
          onChange={(e) => setTeams(e.target.value)}
          data-testid="policy-teams"
          className={field}
          placeholder="db: dana@example.com, eli@example.com"
        />
      </label>
      <button
        type="submit"
        data-testid="policy-save"
        className="self-start rounded bg-zinc-800 px-3 py-2 text-sm text-white"
      >
        Save the policy
      </button>
      {message ? (
        <p role={message.ok ? "status" : "alert"} data-testid="policy-message" className="text-sm">
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
