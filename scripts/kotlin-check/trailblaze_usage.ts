// What a trailmap's scripted tool writes against `@trailblaze/scripting` with the generated
// TrailblazeToolMap entries: calls that must type-check, and (`@ts-expect-error`) calls that must
// not. Compiled by tests/test_kotlin.py (against the SDK's public types) and by
// scripts/trailblaze_check.py --against (against the SDK's own declaration bundle).
import type { TrailblazeClient } from "@trailblaze/scripting";

declare const client: TrailblazeClient;

export async function calls(): Promise<string> {
  const set: string = await client.tools.web_setExtraHTTPHeaders({ headers: { "x-a": "1" } });
  const title: string = await client.tools.web_title({});
  await client.tools.web_mouse_click({ x: 1, y: 2, button: "right" });
  // web_evaluate: the SDK's three call styles (its overloads send `{ script }`).
  const two: number = await client.tools.web_evaluate((a: number) => a + 1, 1);
  const text: string = await client.tools.web_evaluate("1 + 1");
  const same: string = await client.tools.web_evaluate({ script: "1 + 1" });
  return set + title + two + text + same;
}

export function wrong(): void {
  // @ts-expect-error not a tool
  void client.tools.web_noSuchTool({});
  // @ts-expect-error headers must be a record of strings
  void client.tools.web_setExtraHTTPHeaders({ headers: 1 });
  // @ts-expect-error a required argument is missing
  void client.tools.web_setExtraHTTPHeaders({});
  // @ts-expect-error the result is text, not a number
  const n: Promise<number> = client.tools.web_title({});
  void n;
}
