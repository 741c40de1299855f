// `plangate hook <agent>`: what an agent's hook configuration runs (see `plangate connect`).
export async function run(args: string[]): Promise<number> {
  const [agent, ...rest] = args;
  if (agent === "claude-code") return (await import("./hook-claude-code")).run(rest);
  console.error("usage: plangate hook claude-code [--url URL]");
  return 2;
}
