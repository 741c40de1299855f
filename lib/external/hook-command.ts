/**
 * The command line `plangate connect` writes into an agent's settings, which the agent runs through a shell:
 * `node '<the plangate file>' hook <agent> --url '<server>' …`, every word quoted. Pure, shared by every agent.
 */

/** One word for a POSIX shell, whatever it contains. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(bin: string, agent: string, url: string, extra: readonly string[] = []): string {
  return ["node", shellQuote(bin), "hook", agent, "--url", shellQuote(url), ...extra.map(shellQuote)].join(" ");
}

/**
 * Whether a settings entry's command is Plangate's hook for `agent`, wherever the plangate file lives (a
 * checkout's bin/plangate.mjs, its bundle, or ~/.local/bin/plangate fetched from a server): connect replaces it
 * and --remove takes out only it.
 */
export function isPlangateHook(command: unknown, agent: string): boolean {
  if (typeof command !== "string") return false;
  // Hooks written before the command was shell-quoted word by word named bin/plangate.mjs in double quotes.
  return command.includes(`' hook ${agent} --url `) || command.includes(`plangate.mjs" hook ${agent}`);
}
