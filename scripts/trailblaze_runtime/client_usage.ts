// What a trailmap's scripted tool writes against `@trailblaze/scripting` with the entries Trailblaze
// itself writes for the generated tools (its `trailblaze-client.d.ts`): calls that must type-check,
// and (`@ts-expect-error`) calls that must not. Compiled by scripts/trailblaze_check.py --against
// with the SDK's own declaration bundle, `skipLibCheck: false`.
import type { TrailblazeClient } from "@trailblaze/scripting";

declare const client: TrailblazeClient;

export async function calls(): Promise<string> {
  // A map argument at 2026.07.21 is JSON text, as the descriptor says.
  const set: string = await client.tools.web_setExtraHTTPHeaders({ headers: '{"x-a": "1"}' });
  const title: string = await client.tools.web_title({});
  await client.tools.web_mouse_click({ x: 1, y: 2, button: "right" });
  // An enum takes Playwright's own spelling: what the descriptor lists and the decoder reads.
  await client.tools.web_waitForLoadState({ state: "domcontentloaded" });
  const text: string = await client.tools.web_evaluate({ script: "1 + 1" });
  return set + title + text;
}

export function wrong(): void {
  // @ts-expect-error not a tool
  void client.tools.web_noSuchTool({});
  // @ts-expect-error not a value the descriptor lists
  void client.tools.web_waitForLoadState({ state: "soon" });
  // @ts-expect-error a required argument is missing
  void client.tools.web_setExtraHTTPHeaders({});
  // @ts-expect-error the result is text, not a number
  const n: Promise<number> = client.tools.web_title({});
  void n;
}
