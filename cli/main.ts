// Dispatches `plangate <command> …` to one module per command (each exports `run(args): Promise<number>`).
type Command = { summary: string; load: () => Promise<{ run: (args: string[]) => Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  connect: {
    summary:
      "claude-code|opencode [--url URL] [--email EMAIL | --token TOKEN] [--remove]: send that agent's plans to Plangate",
    load: () => import("./connect"),
  },
  hook: {
    summary: "claude-code [--url URL]: the hook an agent runs (written by connect)",
    load: () => import("./hook"),
  },
  mcp: {
    summary: "[--url URL]: an MCP server on stdio whose tools send plans and asks to Plangate and wait for a person",
    load: () => import("./mcp"),
  },
  serve: {
    summary:
      "[--data DIR] [--host HOST] [--port PORT]: run Plangate from this install (data in ~/.local/share/plangate)",
    load: () => import("./serve"),
  },
  "import-config": {
    summary:
      "[--workspace DIR] [--write] [--user] [--json]: bring Claude Code and OpenCode permission rules into .plangate/config.json",
    load: () => import("./import-config"),
  },
};

/** The commands and what each does. */
export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  plangate ${name.padEnd(16)} ${c.summary}`);
  return ["usage:", ...lines].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    console.error(name && name !== "--help" ? `plangate: unknown command ${name}\n${usage()}` : usage());
    return name === "--help" ? 0 : 2;
  }
  return (await command.load()).run(args);
}
