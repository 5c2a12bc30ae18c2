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
  // The tools the allowlist graduates, as the hand-written ones were called (a trail's JSON).
  await client.tools.web_wait({ seconds: 2, reasoning: "let the animation end" });
  await client.tools.web_wait({});
  const url: string = await client.tools.web_waitForUrl({ pattern: ".*(dashboard|home).*", timeoutMs: 10000 });
  await client.tools.web_resize({ width: 375, height: 812, reasoning: "phone breakpoint" });
  await client.tools.web_pressKey({ key: "Enter" });
  const where: string = await client.tools.web_currentUrl({});
  return set + title + text + url + where;
}

export function wrong(): void {
  // @ts-expect-error not a tool
  void client.tools.web_noSuchTool({});
  // @ts-expect-error not a value the descriptor lists
  void client.tools.web_waitForLoadState({ state: "soon" });
  // @ts-expect-error a required argument is missing
  void client.tools.web_setExtraHTTPHeaders({});
  // @ts-expect-error an upper-case entry name: the descriptor lists Playwright's spelling
  void client.tools.web_waitForLoadState({ state: "DOMCONTENTLOADED" });
  // @ts-expect-error seconds is a number
  void client.tools.web_wait({ seconds: "2" });
  // @ts-expect-error web_waitForUrl needs its pattern
  void client.tools.web_waitForUrl({ timeoutMs: 5 });
  // @ts-expect-error the result is text, not a number
  const n: Promise<number> = client.tools.web_title({});
  void n;
}
