// Stand-in for Trailblaze's sdks/typescript/src/client.ts
// at block/trailblaze@a022ca69b7fecd0ba7659f2c000fb459213c87d6 (the SDK is not published): the
// public types of `@trailblaze/scripting` that `client.tools.<name>(args)` is typed by, every line
// copied from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout (and
// type-checks the augmentation against the SDK's own declaration bundle, built as Trailblaze does).

export interface TrailblazeCallToolResult {
  success: true;
  textContent: string;
  errorMessage: string;
  structuredContent?: unknown;
}

export interface TrailblazeToolMap {}

export type TrailblazeToolEntry = { args: unknown; result: unknown };

export type TrailblazeToolMethods = {
  [K in keyof TrailblazeToolMap]: K extends "web_evaluate"
    ? WebEvaluateMethod
    : (
        args: TrailblazeToolMap[K] extends { args: infer A } ? A : never,
      ) => Promise<TrailblazeToolMap[K] extends { result: infer R } ? R : never>;
};

type WebEvaluateMethod = {
  <TArgs extends readonly unknown[], TResult>(
    fn: (...args: TArgs) => TResult | Promise<TResult>,
    ...args: TArgs
  ): Promise<TResult>;
  (script: string): Promise<string>;
  (args: { script: string }): Promise<string>;
};

interface TrailblazeClientImpl {
  callTool<K extends keyof TrailblazeToolMap>(
    name: K,
    args: TrailblazeToolMap[K] extends { args: infer A } ? A : never,
  ): Promise<TrailblazeCallToolResult>;

  tools: TrailblazeToolMethods;
}

export type TrailblazeClient = Omit<TrailblazeClientImpl, "callTool">;
