// A fake Gemini API that speaks what Gemini CLI 0.61 sends and reads (measured: ../shared/reference): the main
// agent's POST /v1beta/models/{model}:streamGenerateContent?alt=sse, answered by one SSE event per scripted turn
// (text or functionCall parts). Every request body is kept, so a test reads what the model was told.
import http from "node:http";

export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };
export type GeminiContent = { role: string; parts: Record<string, unknown>[] };
export type GeminiRequest = { path: string; body: { contents?: GeminiContent[] } };
/** A turn: fixed parts, or parts made from the request (what the model was just told). */
export type GeminiTurn = GeminiPart[] | ((req: GeminiRequest) => GeminiPart[]);
export type FakeGemini = { url: string; requests: GeminiRequest[]; close: () => Promise<void> };

const chunk = (parts: GeminiPart[]) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
});

export async function startFakeGemini(turns: GeminiTurn[]): Promise<FakeGemini> {
  const requests: GeminiRequest[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString("utf8")));
    req.on("end", () => {
      const url = req.url ?? "";
      if (url.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ totalTokens: 10 }));
        return;
      }
      const request: GeminiRequest = { path: url, body: text ? JSON.parse(text) : {} };
      requests.push(request);
      const turn = turns[next++];
      const parts = turn === undefined ? [{ text: "Done." }] : typeof turn === "function" ? turn(request) : turn;
      if (url.includes(":streamGenerateContent")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(chunk(parts))}\r\n\r\n`);
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(chunk(parts)));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The tool result the request reports last (what the model was told about its last call). */
export function lastToolResult(req: GeminiRequest | undefined): { name?: string; output?: string; error?: string } {
  const last = req?.body.contents?.at(-1)?.parts ?? [];
  const fr = last
    .map((p) => p.functionResponse as { name?: string; response?: Record<string, unknown> } | undefined)
    .find(Boolean);
  const response = fr?.response ?? {};
  return {
    name: fr?.name,
    output: typeof response.output === "string" ? response.output : undefined,
    error: typeof response.error === "string" ? response.error : undefined,
  };
}

export const call = (name: string, args: Record<string, unknown>): GeminiPart => ({ functionCall: { name, args } });
