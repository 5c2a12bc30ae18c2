// Type-level test of the generated bindings (generated/typescript/web-tools.d.ts).
// `tsc --strict --noEmit` must accept this file as is, so it checks both directions:
// every plain line below must compile, and every `// @ts-expect-error` must sit on a
// line that really is an error (an unused directive is itself error TS2578).
// "web-tools" is mapped by tests/ts/tsconfig.json to the committed generated/typescript/
// web-tools.d.ts (for editors and `npm run typecheck`); tests/test_typescript.py writes a
// temporary tsconfig with the same compilerOptions that maps it to a fresh generation.

import type { Geolocation, JsonValue, WebToolFunctions, WebToolName, WebTools, WebToolsClient } from "web-tools";

declare const client: WebToolsClient;

/** True exactly when A and B are the same type (not merely mutually assignable). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// ---- The three views of the tools agree with one another -------------------------------

const sameNames: Equals<keyof WebToolFunctions, WebToolName> = true;
const sameNamesAsTools: Equals<WebToolName, keyof WebTools> = true;

type ExpectedFunctions = {
  [K in WebToolName]: (args: WebTools[K]["args"]) => Promise<WebTools[K]["result"]>;
};
const functionsMatchTools: Equals<
  { [K in WebToolName]: WebToolFunctions[K] },
  ExpectedFunctions
> = true;

// ---- Argument and result types of each tool ------------------------------------------

const evaluateArgs: Equals<WebTools["web_evaluate"]["args"], { script: string; arg?: JsonValue }> = true;
const evaluateResult: Equals<WebTools["web_evaluate"]["result"], JsonValue> = true;
const headersArgs: Equals<WebTools["web_setExtraHTTPHeaders"]["args"], { headers: Record<string, string> }> = true;
const viewportArgs: Equals<WebTools["web_setViewportSize"]["args"], { width: number; height: number }> = true;
const geolocationArgs: Equals<WebTools["web_setGeolocation"]["args"], { geolocation: Geolocation | null }> = true;
const geolocationShape: Equals<Geolocation, { accuracy?: number; latitude: number; longitude: number }> = true;
const offlineArgs: Equals<WebTools["web_setOfflineMode"]["args"], { offline: boolean }> = true;
const initScriptArgs: Equals<WebTools["web_addInitScript"]["args"], { script: string }> = true;
const nullResults: Equals<
  WebTools[
    | "web_addInitScript"
    | "web_setExtraHTTPHeaders"
    | "web_setViewportSize"
    | "web_setGeolocation"
    | "web_setOfflineMode"
  ]["result"],
  null
> = true;
const titleResult: Equals<WebTools["web_title"]["result"], string> = true;
const gotoResult: Equals<
  WebTools["web_navigate"]["result"],
  { url: string; status: number; statusText: string; ok: boolean } | null
> = true;

// ---- Real use that must type-check ----------------------------------------------------

export async function correctUse(): Promise<void> {
  const headers: null = await client.tools.web_setExtraHTTPHeaders({ headers: { "x-a": "1" } });
  await client.tools.web_setExtraHTTPHeaders({ headers: {} });

  const two: JsonValue = await client.tools.web_evaluate({ script: "1 + 1" });
  const echoed: JsonValue = await client.tools.web_evaluate({
    script: "(x) => x",
    arg: { n: 1, list: [true, null, "s", 2.5], nested: { deep: [] } },
  });
  await client.tools.web_evaluate({ script: "(x) => x", arg: null });

  const viewport: null = await client.tools.web_setViewportSize({ width: 800, height: 600 });

  await client.tools.web_setGeolocation({ geolocation: { latitude: 59.95, longitude: 30.31667 } });
  await client.tools.web_setGeolocation({
    geolocation: { latitude: 59.95, longitude: 30.31667, accuracy: 10 },
  });
  const place: Geolocation = { latitude: 0, longitude: 0 };
  await client.tools.web_setGeolocation({ geolocation: place });

  const offline: null = await client.tools.web_setOfflineMode({ offline: true });
  const initScript: null = await client.tools.web_addInitScript({ script: "window.seeded = 42;" });

  const viaCall: JsonValue = await client.call("web_evaluate", { script: "document.title" });
  const viaCallWithArg: JsonValue = await client.call("web_evaluate", { script: "(x) => x", arg: [1, 2] });
  const offlineViaCall: null = await client.call("web_setOfflineMode", { offline: false });

  // A name chosen at run time still gets the matching argument type.
  const name: WebToolName = "web_setViewportSize";
  if (name === "web_setViewportSize") {
    await client.call(name, { width: 1, height: 1 });
  }

  // The JSON result narrows like any JsonValue.
  const result = await client.tools.web_evaluate({ script: "1 + 1" });
  if (typeof result === "number") {
    const fixed: string = result.toFixed(2);
  }
}

// ---- Wrong use that must be rejected --------------------------------------------------

export async function wrongUse(): Promise<void> {
  // A header value must be a string.
  // @ts-expect-error
  await client.tools.web_setExtraHTTPHeaders({ headers: { "x-a": 1 } });

  // Required arguments cannot be left out.
  // @ts-expect-error
  await client.tools.web_evaluate({});
  // @ts-expect-error
  await client.tools.web_evaluate({ arg: 1 });
  // @ts-expect-error
  await client.tools.web_setViewportSize({ width: 800 });
  // @ts-expect-error
  await client.tools.web_setOfflineMode({});
  // @ts-expect-error
  await client.tools.web_addInitScript();

  // Arguments the tool does not have are rejected.
  // @ts-expect-error
  await client.tools.web_setViewportSize({ width: 800, height: 600, deviceScaleFactor: 2 });
  // @ts-expect-error
  await client.tools.web_evaluate({ script: "1", args: [1] });
  // @ts-expect-error
  await client.tools.web_setGeolocation({ geolocation: { latitude: 1, longitude: 2, altitude: 3 } });

  // Argument types are enforced.
  // @ts-expect-error
  await client.tools.web_setViewportSize({ width: "800", height: 600 });
  // @ts-expect-error
  await client.tools.web_setOfflineMode({ offline: "yes" });
  // @ts-expect-error
  await client.tools.web_addInitScript({ script: () => 1 });
  // @ts-expect-error -- a function is not JSON
  await client.tools.web_evaluate({ script: "(x) => x", arg: () => 1 });
  // @ts-expect-error -- neither is a Date
  await client.tools.web_evaluate({ script: "(x) => x", arg: new Date() });

  // The geolocation object needs both coordinates.
  // @ts-expect-error
  await client.tools.web_setGeolocation({ geolocation: { longitude: 30.31667 } });
  // @ts-expect-error
  await client.tools.web_setGeolocation({ geolocation: { latitude: 59.95 } });
  // `null` clears the emulated position, as in Playwright's own API; leaving it out is an error.
  await client.tools.web_setGeolocation({ geolocation: null });
  // @ts-expect-error
  await client.tools.web_setGeolocation({});

  // polling is a number of milliseconds or "raf", nothing else.
  await client.tools.web_waitForFunction({ expression: "1", polling: 50 });
  await client.tools.web_waitForFunction({ expression: "1", polling: "raf" });
  // @ts-expect-error
  await client.tools.web_waitForFunction({ expression: "1", polling: "often" });

  // selectOption takes strings or {value}, {label}, {index} objects, alone or in a list.
  await client.tools.web_selectOption({ selector: "#s", values: [{ label: "Blue" }, { index: 2 }] });
  // @ts-expect-error
  await client.tools.web_selectOption({ selector: "#s", values: { text: "Blue" } });

  // Unknown tools do not exist, neither as methods nor by name.
  // @ts-expect-error
  await client.tools.web_noSuchTool({ selector: "a" });
  // @ts-expect-error
  await client.call("web_noSuchTool", { selector: "a" });
  // @ts-expect-error -- the Java-side name is not a tool name
  await client.call("setViewportSize", { width: 1, height: 1 });

  // client.call checks the arguments against the named tool.
  // @ts-expect-error
  await client.call("web_evaluate", { expression: "1" });
  // @ts-expect-error
  await client.call("web_setViewportSize", { expression: "1 + 1" });

  // Results have the declared type and cannot be misused.
  // @ts-expect-error -- the result is null, not a number
  const width: number = await client.tools.web_setViewportSize({ width: 800, height: 600 });
  // @ts-expect-error -- a JsonValue may be null or a string: no .toFixed without narrowing
  (await client.tools.web_evaluate({ script: "1 + 1" })).toFixed(2);
  // @ts-expect-error -- the result is a Promise, not the value
  const notAwaited: JsonValue = client.call("web_evaluate", { script: "1" });
  // @ts-expect-error -- null result via call
  const offlineFlag: boolean = await client.call("web_setOfflineMode", { offline: true });

  // The client is read-only where it says so.
  // @ts-expect-error
  client.tools = client.tools;
}
