// `plangate connect mcp [--url URL] [--email EMAIL | --token TOKEN]`: saves an `agent` token for `plangate mcp`
// (it may submit plans and asks and wait for them, never decide one) and prints the server entry to give an MCP
// client (Cursor, Cline, Windsurf, Continue, Claude Desktop …). Nothing is written into any client's settings.
import { provideToken, TOKEN_OPTIONS } from "./agent-token";
import { optionsOrUsage } from "./options";
import { urlOption } from "./project-file";
import { selfPath } from "./self";

const USAGE = "usage: plangate connect mcp [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN]";
const OPTIONS = { url: { type: "string" }, ...TOKEN_OPTIONS } as const;

export async function run(args: string[]): Promise<number> {
  const opts = optionsOrUsage(args, OPTIONS, USAGE);
  if (opts === null) return 2;
  const url = urlOption(opts.url);
  if (url === null) return 2;
  let told: string[];
  try {
    told = await provideToken(url, "mcp", opts);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  for (const line of told) console.log(`plangate: ${line}`);
  const entry = { mcpServers: { plangate: { command: "node", args: [selfPath(), "mcp", "--url", url] } } };
  console.log(`plangate: add this server to your MCP client:\n${JSON.stringify(entry, null, 2)}`);
  return 0;
}
