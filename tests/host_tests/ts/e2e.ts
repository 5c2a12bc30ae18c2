// End to end: this script, compiled with `tsc --strict`, drives the Python host in Chromium
// through the host's TypeScript client, and checks each effect at the test server or in the page.
// Run by tests/host_tests/test_host_scripting.py with HOST_URL and APP_URL set.

import { createClient, ToolCallError, type ToolResult } from "../../../clients/typescript/src/index";

const hostUrl = process.env["HOST_URL"]!;
const appUrl = process.env["APP_URL"]!;

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`check failed: ${what}`);
}

async function serverSaw(): Promise<{ headers: Record<string, string>; count: number }> {
  const response = await fetch(`${appUrl}/_seen`);
  return (await response.json()) as { headers: Record<string, string>; count: number };
}

async function main(): Promise<void> {
  const client = createClient({ baseUrl: hostUrl, sessionId: `e2e-${process.pid}` });
  const done: string[] = [];

  // 1. Extra HTTP headers: seen by the server.
  const nothing: null = await client.tools.web_setExtraHTTPHeaders({ headers: { "x-e2e-token": "from-typescript" } });
  check(nothing === null, "web_setExtraHTTPHeaders returns null");
  const response: ToolResult<"web_navigate"> = await client.tools.web_navigate({ url: `${appUrl}/page` });
  check(response !== null && response.status === 200, "navigation answered 200");
  check((await serverSaw()).headers["x-e2e-token"] === "from-typescript", "the server saw the extra header");
  done.push("setExtraHTTPHeaders");

  // 2. Init script: runs in the next document.
  await client.tools.web_addInitScript({ script: "window.__fromInitScript = 'ts-' + (6 * 7);" });
  await client.tools.web_navigate({ url: `${appUrl}/page` });
  check((await client.tools.web_evaluate({ script: "window.__fromInitScript" })) === "ts-42", "init script ran");
  done.push("addInitScript");

  // 3. Geolocation: the page reads the position we set.
  await client.tools.web_context_grantPermissions({ permissions: ["geolocation"] });
  await client.tools.web_setGeolocation({ geolocation: { latitude: 52.5, longitude: 13.4 } });
  const position = await client.tools.web_evaluate({
    script:
      "new Promise((ok, ko) => navigator.geolocation.getCurrentPosition(p => ok([p.coords.latitude, p.coords.longitude]), e => ko(e.message)))",
  });
  check(JSON.stringify(position) === JSON.stringify([52.5, 13.4]), `geolocation seen in the page: ${JSON.stringify(position)}`);
  done.push("setGeolocation");

  // 4. Offline: the page is offline and its fetch never reaches the server.
  const before = (await serverSaw()).count;
  await client.tools.web_setOfflineMode({ offline: true });
  const offline = await client.tools.web_evaluate({
    script: `fetch(${JSON.stringify(appUrl + "/page")}).then(() => 'reached', () => 'failed').then(r => [navigator.onLine, r])`,
  });
  check(JSON.stringify(offline) === JSON.stringify([false, "failed"]), `offline in the page: ${JSON.stringify(offline)}`);
  check((await serverSaw()).count === before, "the server saw no request while offline");
  await client.tools.web_setOfflineMode({ offline: false });
  done.push("setOfflineMode");

  // 5. Viewport: the page's layout size.
  await client.tools.web_setViewportSize({ width: 640, height: 480 });
  const size = await client.tools.web_evaluate({ script: "[window.innerWidth, window.innerHeight]" });
  check(JSON.stringify(size) === JSON.stringify([640, 480]), `viewport in the page: ${JSON.stringify(size)}`);
  done.push("setViewportSize");

  // Typed results and typed errors.
  const title: string = await client.tools.web_title({});
  check(title === "host e2e", `title: ${title}`);
  const tabs = await client.tools.web_tabs({ action: "list" });
  check(tabs.tabs.length === 1 && tabs.tabs[0]!.current, "one current tab");
  try {
    // @ts-expect-error width must be a number: the compiler refuses it, the host too.
    await client.tools.web_setViewportSize({ width: "wide", height: 480 });
    throw new Error("a wrong argument was accepted");
  } catch (error) {
    check(error instanceof ToolCallError, "a ToolCallError");
    const failure = error as ToolCallError;
    check(failure.code === "invalid_argument" && failure.path === "width", `code ${failure.code} at ${failure.path}`);
  }
  process.stdout.write(JSON.stringify({ ok: true, done }) + "\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
