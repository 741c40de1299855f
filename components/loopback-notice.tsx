/**
 * Passkeys cannot use an IP address as their site, so a person on http://127.0.0.1 is told to switch to
 * localhost (the setup link the server prints already uses it).
 */
export function LoopbackNotice({ host }: { host: string }) {
  const m = /^(127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/.exec(host);
  if (!m) return null;
  return (
    <p
      className="rounded border border-amber-300 bg-amber-50 p-2 text-sm dark:bg-amber-950"
      data-testid="use-localhost"
    >
      You are on {host}. Open <a href={`http://localhost${m[2] ?? ""}/sign-in`}>localhost{m[2] ?? ""}</a> instead:
      passkeys work only on a host name.
    </p>
  );
}

/** A passkey's site must be a host name: on an IP address (loopback or not) the browser refuses the ceremony. */
export function isIpHost(host: string): boolean {
  return /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])(:\d+)?$/i.test(host);
}
