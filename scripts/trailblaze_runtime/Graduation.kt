// The graduation check (docs/generator.md, "Graduating Trailblaze's hand-written tools"): the same
// tool-call JSON decoded by Trailblaze's `TrailblazeJsonInstance` into Trailblaze's hand-written
// `PlaywrightNative*Tool` and into the generated class of the same tool name, each run through
// `executeWithPlaywright` on a fresh page of headless Chromium showing the same local page; their
// results (the result's text, or the error's) and the page's state afterwards (URL, viewport)
// are compared. One `GRADUATION {json}` line per case on stdout, then `GRADUATION {"kind":"end"}`.
//
//   Graduation --classes DIR --trailblaze-classes DIR --chromium PATH
//
// --classes: where the generated shims were compiled; --trailblaze-classes: Trailblaze's compiled
// classes (build.py), holding the hand-written tools.
@file:OptIn(kotlinx.serialization.InternalSerializationApi::class)

package graduation

import com.microsoft.playwright.Browser
import com.microsoft.playwright.BrowserType
import com.microsoft.playwright.Playwright
import com.sun.net.httpserver.HttpServer
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.serializer
import xyz.block.trailblaze.logs.client.TrailblazeJsonInstance
import xyz.block.trailblaze.playwright.tools.PlaywrightExecutableTool
import xyz.block.trailblaze.toolcalls.TrailblazeToolClass
import xyz.block.trailblaze.toolcalls.TrailblazeToolExecutionContext
import java.io.File
import java.net.InetSocketAddress
import java.nio.file.Paths
import kotlin.reflect.KClass
import kotlin.reflect.full.findAnnotation

const val GENERATED_PACKAGE = "xyz.block.trailblaze.playwright.generated"
const val HAND_WRITTEN_PACKAGE = "xyz.block.trailblaze.playwright.tools"

/** One call: the tool, its arguments as a trail carries them, and, for a difference the docs
 * already explain, that explanation (the case then reports `documented`, not a failure). */
data class Case(val tool: String, val arguments: String, val documented: String? = null)

val CASES = listOf(
  Case("web_currentUrl", "{}"),
  Case("web_getStorageState", "{}"),
  Case("web_evaluate", """{"script": "document.title"}"""),
  Case("web_evaluate", """{"script": "6 * 7"}"""),
  Case("web_evaluate", """{"script": "null"}"""),
  Case("web_evaluate", """{"script": "throw new Error('boom')"}"""),
  Case(
    "web_evaluate",
    """{"script": "({a: 1, b: 'x'})"}""",
    "an object: Java's Map.toString() against JSON text",
  ),
  Case("web_pressKey", """{"key": "Enter", "reasoning": "submit the form"}"""),
  Case("web_pressKey", """{"key": "Shift+Tab"}"""),
  Case("web_pressKey", """{"key": "NoSuchKey"}"""),
  Case("web_resize", """{"width": 375, "height": 812, "reasoning": "phone breakpoint"}"""),
  Case("web_resize", """{"width": 0, "height": 812}"""),
  Case("web_resize", """{"width": 1024, "height": -1}"""),
  Case("web_wait", """{"seconds": 1, "reasoning": "let the animation end"}"""),
  Case("web_wait", """{"seconds": 0}"""),
  Case("web_wait", "{}"),
  Case("web_waitForUrl", """{"pattern": ".*(dashboard|home|orders).*", "timeoutMs": 5000}"""),
  Case("web_waitForUrl", """{"pattern": ".*/login$", "timeoutMs": 300}"""),
  Case("web_waitForUrl", """{"pattern": "(unclosed", "timeoutMs": 300}"""),
)

// Both steps a key press depends on happen in the page's own script, so they are done when the
// press returns: the input is focused while the page loads (`autofocus` is applied at a later
// rendering step, which may come after `navigate` returns), and the form's submission changes the
// URL within the document (a real submission navigates after the press has returned). A
// clean-clone CI run saw either URL after `Enter` before this.
const val PAGE = """<!doctype html><html><head><title>Orders dashboard</title></head>
<body><form><input name="q"><button>Go</button></form>
<script>localStorage.setItem("theme", "dark");
document.forms[0].q.focus();
document.forms[0].addEventListener("submit", (event) => {
  event.preventDefault();
  history.pushState(null, "", "?q=" + encodeURIComponent(event.target.q.value));
});</script></body></html>"""

/** [text] without the stack frames of Playwright's driver (Node's own and its bundle's): an error
 * Playwright passes on holds the driver's async stack, whose frames differ from call to call of
 * the same code (`runNextTicks` is there or not), so two tools' errors are compared without it. */
fun driverFramesOut(text: String): String =
  text.lines().filterNot { Regex("""^\s+at .*(node:internal/|/package/lib/)""").containsMatchIn(it) }
    .joinToString("\n")

fun emit(fields: Map<String, Any?>) {
  val line = buildJsonObject {
    for ((key, value) in fields) {
      when (value) {
        null -> put(key, null as String?)
        is Boolean -> put(key, value)
        is Number -> put(key, value)
        else -> put(key, value.toString())
      }
    }
  }
  println("GRADUATION $line")
  System.out.flush()
}

/** The `@TrailblazeToolClass` classes of [pkg] under [classes], by tool name. */
fun toolClasses(classes: File, pkg: String): Map<String, KClass<*>> =
  (File(classes, pkg.replace('.', '/')).listFiles() ?: emptyArray())
    .filter { it.name.endsWith(".class") && '$' !in it.name }
    .map { Class.forName("$pkg.${it.name.removeSuffix(".class")}").kotlin }
    .mapNotNull { k -> k.findAnnotation<TrailblazeToolClass>()?.let { it.name to k } }
    .toMap()

/** What one implementation did with [arguments]: its result as text, and the page afterwards. */
fun run(browser: Browser, origin: String, kClass: KClass<*>, arguments: String): Pair<String, String> {
  val context = browser.newContext()
  try {
    val page = context.newPage()
    page.navigate("$origin/app/dashboard")
    val result = try {
      // As Trailblaze decodes a class-backed tool call (TrailblazeToolRepo).
      val tool = TrailblazeJsonInstance.decodeFromString(kClass.serializer(), arguments) as PlaywrightExecutableTool
      runBlocking { tool.executeWithPlaywright(page, TrailblazeToolExecutionContext(null)).toString() }
    } catch (e: Exception) {
      "threw ${e::class.simpleName}: ${e.message}"
    }
    val viewport = page.viewportSize()?.let { "${it.width}x${it.height}" }
    // The document's own location: Playwright's page.url() follows the driver's navigation
    // events, which may arrive after the call that caused them has returned.
    val url = page.evaluate("() => location.href")
    return result to "url=$url viewport=$viewport"
  } finally {
    context.close()
  }
}

fun main(args: Array<String>) {
  fun arg(name: String): String = args.indexOf(name).takeIf { it >= 0 }?.let { args[it + 1] } ?: error("$name is required")
  val generated = toolClasses(File(arg("--classes")), GENERATED_PACKAGE)
  val handWritten = toolClasses(File(arg("--trailblaze-classes")), HAND_WRITTEN_PACKAGE)
  val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
  server.createContext("/") { exchange ->
    val body = PAGE.toByteArray()
    exchange.responseHeaders.add("Content-Type", "text/html; charset=utf-8")
    exchange.responseHeaders.add("Set-Cookie", "session=abc123; Path=/; SameSite=Lax")
    exchange.sendResponseHeaders(200, body.size.toLong())
    exchange.responseBody.use { it.write(body) }
  }
  server.start()
  val origin = "http://127.0.0.1:${server.address.port}"
  try {
    Playwright.create().use { playwright ->
      val launch = BrowserType.LaunchOptions()
        .setHeadless(true)
        .setExecutablePath(Paths.get(arg("--chromium")))
        .setArgs(listOf("--no-sandbox"))
      val browser = playwright.chromium().launch(launch)
      for (case in CASES) {
        val hand = handWritten[case.tool]
        val gen = generated[case.tool]
        if (hand == null || gen == null) {
          emit(mapOf("kind" to "case", "tool" to case.tool, "arguments" to case.arguments,
            "missing" to if (hand == null) "hand-written" else "generated"))
          continue
        }
        val (handResult, handState) = run(browser, origin, hand, case.arguments)
        val (genResult, genState) = run(browser, origin, gen, case.arguments)
        // The origin's port changes from run to run: reported without it.
        fun shown(text: String) = text.replace(origin, "http://127.0.0.1:PORT")
        val handText = driverFramesOut(handResult)
        val genText = driverFramesOut(genResult)
        emit(
          mapOf(
            "kind" to "case",
            "tool" to case.tool,
            "arguments" to case.arguments,
            "hand_written" to shown(handResult),
            "generated" to shown(genResult),
            "hand_written_page" to shown(handState),
            "generated_page" to shown(genState),
            "same" to (handText == genText && handState == genState),
            "documented" to case.documented,
          ),
        )
      }
      browser.close()
    }
  } finally {
    server.stop(0)
  }
  emit(mapOf("kind" to "end", "cases" to CASES.size))
}
