// `plangate hook <agent>`: what an agent's hook configuration runs (see `plangate connect`).
const HOOKS: Record<string, () => Promise<{ run: (args: string[]) => Promise<number> }>> = {
  "claude-code": () => import("./hook-claude-code"),
  gemini: () => import("./hook-gemini"),
  codex: () => import("./hook-codex"),
  pi: () => import("./hook-pi"),
  droid: () => import("./hook-droid"),
  copilot: () => import("./hook-copilot"),
  qwen: () => import("./hook-qwen"),
  kilo: () => import("./hook-kilo"),
  cline: () => import("./hook-cline"),
  "cline-tools": () => import("./hook-cline-tools"),
  amp: () => import("./hook-amp"),
  "amp-delegate": () => import("./hook-amp-delegate"),
};

export async function run(args: string[]): Promise<number> {
  const [agent, ...rest] = args;
  const load = agent === undefined ? undefined : HOOKS[agent];
  if (!load) {
    console.error(`usage: plangate hook ${Object.keys(HOOKS).join("|")} [--url URL]`);
    return 2;
  }
  return (await load()).run(rest);
}
