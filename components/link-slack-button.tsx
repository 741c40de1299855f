"use client";

import { useState } from "react";
import { postJson } from "./post-json";

/** Links the Slack user that was shown this code to the signed-in person, on their explicit press. */
export function LinkSlackButton({ code }: { code: string }) {
  const [said, setSaid] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  async function link() {
    const result = await postJson("/api/integrations/slack/link", { code });
    if (!result.ok) return setSaid(result.message);
    setDone(true);
    setSaid("Linked. Your Slack buttons now act as you; press the button in Slack again.");
  }
  return (
    <div className="flex flex-col gap-2 text-sm">
      {!done && (
        <button
          type="button"
          onClick={link}
          className="self-start rounded border border-zinc-400 px-3 py-1 dark:border-zinc-600"
          data-testid="link-slack"
        >
          Link this Slack account to me
        </button>
      )}
      {said ? (
        <p role="status" data-testid="link-slack-said">
          {said}
        </p>
      ) : null}
    </div>
  );
}
