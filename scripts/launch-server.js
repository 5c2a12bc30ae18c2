// node scripts/launch-server.js PLAYWRIGHT_CORE_DIR CHROMIUM ARGS_JSON: a Playwright browser server
// (`chromium.launchServer` of the given playwright-core) on a free loopback port, headless,
// launching CHROMIUM with the arguments ARGS_JSON (a JSON list). Prints its ws:// endpoint on
// one line and serves until killed. Used by the pool tests and benchmarks/scaling_bench.py.
const [core, executablePath, args] = process.argv.slice(2);
// The playwright-core folder as given, relative to the current directory.
const { chromium } = require(require('path').resolve(core));
(async () => {
  const server = await chromium.launchServer({
    executablePath, headless: true, host: '127.0.0.1', port: 0, args: JSON.parse(args),
  });
  console.log(server.wsEndpoint());
})();
