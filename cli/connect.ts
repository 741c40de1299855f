// `plangate connect <agent> …`: one sub-command per coding agent.
const AGENTS: Record<string, () => Promise<{ run: (args: string[]) => Promise<number> }>> = {
  "claude-code": () => import("./connect-claude-code"),
  opencode: () => import("./connect-opencode"),
  gemini: () => import("./connect-gemini"),
  codex: () => import("./connect-codex"),
  pi: () => import("./connect-pi"),
  droid: () => import("./connect-droid"),
  copilot: () => import("./connect-copilot"),
  qwen: () => import("./connect-qwen"),
  kilo: () => import("./connect-kilo"),
  cline: () => import("./connect-cline"),
  amp: () => import("./connect-amp"),
  mcp: () => import("./connect-mcp"),
};

export async function run(args: string[]): Promise<number> {
  const [agent, ...rest] = args;
  const load = agent === undefined ? undefined : AGENTS[agent];
  if (!load) {
    console.error(
      `usage: plangate connect ${Object.keys(AGENTS).join("|")} [--url URL] [--email EMAIL | --token TOKEN] [--remove]`,
    );
    return 2;
  }
  return (await load()).run(rest);
}
