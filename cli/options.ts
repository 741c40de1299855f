// A command's options, read by node:util's parseArgs (strict): every command takes only the options it names.
import { parseArgs } from "node:util";

type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;
export type Options<S extends OptionSpec> = {
  [K in keyof S]?: S[K]["type"] extends "string" ? string : boolean;
};

/** A command line that cannot be read: the message names the option (or word) at fault. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** node:util's parse errors, said in a line, naming the option. */
function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  // Node quotes the option as '--name', '--name <value>' or '-n, --name <value>'.
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const name = /--?[^\s,<]+(?=\s*(?:<[^>]*>)?$)/.exec(quoted)?.[0] ?? quoted;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown argument ${name}`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `unexpected argument ${JSON.stringify(quoted)}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/does not take an argument/.test(message)) return `${name} takes no value`;
    if (/ambiguous/.test(message)) return `${name} needs a value (one that starts with "-" is written ${name}=-…)`;
    return `${name} needs a value`;
  }
  return message.split("\n")[0] ?? message;
}

/**
 * A command's `--name value` (or `--name=value`) options and bare flags, read strictly by node:util's parseArgs:
 * an unknown option, a missing value, a value given to a flag or a stray word is a UsageError that names it.
 */
export function options<const S extends OptionSpec>(args: readonly string[], spec: S): Options<S> {
  try {
    const { values } = parseArgs({ args: [...args], options: spec, strict: true, allowPositionals: false });
    return values as Options<S>;
  } catch (error) {
    if (error instanceof TypeError && typeof (error as { code?: unknown }).code === "string")
      throw new UsageError(usageMessage(error));
    throw error;
  }
}

/** The options, or null after saying on stderr what is wrong, with the usage line (the command then exits 2). */
export function optionsOrUsage<const S extends OptionSpec>(
  args: readonly string[],
  spec: S,
  usage: string,
): Options<S> | null {
  try {
    return options(args, spec);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`plangate: ${error.message}\n${usage}`);
    return null;
  }
}
