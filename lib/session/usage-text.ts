import type { Usage } from "./log/events";
import { hasUsage } from "./log/usage";

// One fixed locale: the server's and the browser's renderings must match (hydration), whatever the machine says.
const numbers = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A token count as people read it: 1234 → "1,234". */
export function formatTokens(n: number): string {
  return numbers.format(n);
}

// hasUsage lives in lib/session/log (the projection needs it); re-exported for what formats tokens.
export { hasUsage };

/**
 * Tokens in words: "1,234 in / 56 out tokens (900 cached)"; `unit: false` drops the word "tokens" (for a line
 * already labelled "Tokens:"). null when nothing was reported, so a page shows nothing rather than "0 tokens".
 */
export function usageText(usage: Usage | null | undefined, opts: { unit?: boolean } = {}): string | null {
  if (!hasUsage(usage)) return null;
  const cache = [
    usage.cacheRead ? `${formatTokens(usage.cacheRead)} cached` : null,
    usage.cacheWrite ? `${formatTokens(usage.cacheWrite)} written to cache` : null,
  ].filter((part): part is string => part !== null);
  const unit = opts.unit === false ? "" : " tokens";
  return `${formatTokens(usage.input)} in / ${formatTokens(usage.output)} out${unit}${cache.length > 0 ? ` (${cache.join(", ")})` : ""}`;
}
