// The host's TypeScript client: `client.tools.web_X(args)` over the scripting callback
// (POST /scripting/callback). Typed by the generated bindings (generated/typescript/web-tools.d.ts)
// plus the host's own hand-authored tools below.

import type { JsonValue, WebTools } from "../../../generated/typescript/web-tools";

export type { JsonValue, WebTools };

export interface TabInfo {
  index: number;
  url: string;
  title: string;
  current: boolean;
  crashed: boolean;
}

export interface RouteInfo {
  url: string;
  action: "fulfill" | "abort" | "continue";
  hits: number;
  times: number | null;
}

export interface NetworkRequest {
  method: string;
  url: string;
  resourceType: string;
  status: number | null;
  failure: string | null;
}

export interface ConsoleEntry {
  level: "error" | "warning" | "info" | "debug";
  type: string;
  text: string;
  tab: number | null;
  location?: string;
}

export interface DialogInfo {
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  defaultValue?: string;
}

/** The host's hand-authored tools (host/tools/*.tool.yaml). */
export interface HostTools {
  web_tabs: {
    args: { action?: "list" | "select" | "new" | "close"; index?: number; url?: string };
    result: { tabs: TabInfo[]; closed?: number };
  };
  web_route: {
    args: {
      url: string;
      fulfill?: {
        status?: number;
        headers?: Record<string, string>;
        contentType?: string;
        body?: string;
        json?: JsonValue;
      };
      abort?: { errorCode?: string };
      continue?: { headers?: Record<string, string> };
      times?: number;
    };
    result: { route: RouteInfo; routes: number };
  };
  web_route_list: { args: Record<string, never>; result: { routes: RouteInfo[] } };
  web_unroute: { args: { url: string }; result: { removed: number; routes: number } };
  web_waitForResponse: {
    args: { url: string; status?: number; timeout?: number };
    result: {
      url: string;
      status: number;
      statusText: string;
      headers: Record<string, string>;
      body: string | null;
      bodyEncoding: "text" | "base64" | null;
      bodySize?: number;
      truncated?: boolean;
    };
  };
  web_network_requests: {
    args: Record<string, never>;
    result: { requests: NetworkRequest[]; dropped: number };
  };
  web_handle_dialog: {
    args: { accept: boolean; promptText?: string };
    result: {
      handled: (DialogInfo & { accepted: boolean }) | null;
      armed: { accept: boolean; promptText: string | null } | null;
    };
  };
  web_console_messages: {
    args: { level?: "error" | "warning" | "info" | "debug"; keep?: boolean };
    result: { messages: ConsoleEntry[]; dropped: number };
  };
}

/** Every tool the host serves to scripts: the generated ones, with the host's replacing any of the same name. */
export type Tools = Omit<WebTools, keyof HostTools> & HostTools;
export type ToolName = keyof Tools;
export type ToolArgs<K extends ToolName> = Tools[K]["args"];
export type ToolResult<K extends ToolName> = Tools[K]["result"];
export type ToolFunctions = { readonly [K in ToolName]: (args: ToolArgs<K>) => Promise<ToolResult<K>> };

/** What the host reports beside a result: a new or ended session, open dialogs, events. */
export interface CallExtras {
  session?: { new?: boolean; ended?: boolean; reason: string };
  dialogs?: (DialogInfo & { tab: number | null })[];
  notes?: JsonValue[];
  interrupted?: string;
}

/** A tool ran and failed (bad arguments, a Playwright error, a timeout...): `code` says which. */
export class ToolCallError extends Error {
  override readonly name = "ToolCallError";
  constructor(
    readonly tool: string,
    readonly code: string,
    message: string,
    readonly path: string,
    readonly extras: CallExtras,
  ) {
    super(message);
  }
}

/** The host could not dispatch the call at all (HTTP error, malformed request, wrong token). */
export class HostProtocolError extends Error {
  override readonly name = "HostProtocolError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** The host, for example `http://127.0.0.1:8931`. */
  baseUrl: string;
  /** The session to act in; calls with the same id share tabs, cookies and routes. Default: a new random id. */
  sessionId?: string;
  /** Bearer token, when the host requires one. */
  token?: string;
}

export interface HostClient {
  readonly sessionId: string;
  readonly tools: ToolFunctions;
  call<K extends ToolName>(name: K, args: ToolArgs<K>): Promise<ToolResult<K>>;
  /** Like `call`, and also returns what the host reported beside the result. */
  callWithExtras<K extends ToolName>(name: K, args: ToolArgs<K>): Promise<{ result: ToolResult<K>; extras: CallExtras }>;
}

interface CallbackResponse {
  result:
    | {
        type: "call_tool_result";
        success: boolean;
        text_content: string;
        error_message: string;
        structured_content?: { result?: JsonValue; error?: { tool: string; code: string; path: string; message: string } } & CallExtras;
      }
    | { type: "error"; message: string };
}

function randomId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function createClient(options: ClientOptions): HostClient {
  const endpoint = new URL("/scripting/callback", options.baseUrl).toString();
  const sessionId = options.sessionId ?? randomId();
  let invocations = 0;

  async function callWithExtras<K extends ToolName>(
    name: K,
    args: ToolArgs<K>,
  ): Promise<{ result: ToolResult<K>; extras: CallExtras }> {
    invocations += 1;
    // `x-result-shape: host`: a success's structured_content is the host's `{result, ...extras}`
    // (without it the host answers as Trailblaze's Kotlin tools do, text only).
    const headers: Record<string, string> = { "content-type": "application/json", "x-result-shape": "host" };
    if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`;
    const response = await fetch(endpoint, {
      method: "POST",
      headers,
      body: JSON.stringify({
        version: 1,
        session_id: sessionId,
        invocation_id: `${sessionId}-${invocations}`,
        action: { type: "call_tool", tool_name: name, arguments_json: JSON.stringify(args) },
      }),
    });
    let payload: CallbackResponse;
    try {
      payload = (await response.json()) as CallbackResponse;
    } catch {
      throw new HostProtocolError(`the host answered HTTP ${response.status} without JSON`, response.status);
    }
    const result = payload.result;
    if (result === undefined || result.type === "error") {
      const message = result?.message ?? `HTTP ${response.status}`;
      throw new HostProtocolError(message, response.status);
    }
    const structured = result.structured_content ?? {};
    const { result: value, error, ...extras } = structured;
    if (!result.success) {
      throw new ToolCallError(
        error?.tool ?? String(name),
        error?.code ?? "call_failed",
        error?.message ?? result.error_message,
        error?.path ?? "",
        extras,
      );
    }
    return { result: (value ?? null) as ToolResult<K>, extras };
  }

  async function call<K extends ToolName>(name: K, args: ToolArgs<K>): Promise<ToolResult<K>> {
    return (await callWithExtras(name, args)).result;
  }

  const tools = new Proxy({} as ToolFunctions, {
    get(_target, property) {
      if (typeof property !== "string") return undefined;
      return (args: JsonValue) => call(property as ToolName, args as never);
    },
  });

  return { sessionId, tools, call, callWithExtras };
}
