import type { Usage } from "@/lib/session/log/events";
import { usageText } from "@/lib/session/usage-text";

/** "Tokens: 1,234 in / 56 out (900 cached)"; nothing at all when no tokens were reported (offline, scripted). */
export function UsageLine({
  usage,
  testId,
  className = "",
}: {
  usage: Usage | null | undefined;
  testId: string;
  className?: string;
}) {
  const text = usageText(usage, { unit: false });
  if (!text) return null;
  return (
    <p data-testid={testId} className={`text-xs text-zinc-600 dark:text-zinc-400 ${className}`}>
      Tokens: {text}
    </p>
  );
}
