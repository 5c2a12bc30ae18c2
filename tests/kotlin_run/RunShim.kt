// tests/test_kotlin.py's browser case: one generated shim run as Trailblaze runs a tool call. The
// call's arguments are decoded from JSON into the shim's class (as Trailblaze decodes a tool call),
// `executeWithPlaywright` runs against a headless Chromium page with a stand-in context, then the
// page loads URL so the local server sees the headers the shim set. Prints the tool's result.

import com.microsoft.playwright.BrowserType
import com.microsoft.playwright.Playwright
import kotlinx.serialization.json.Json
import xyz.block.trailblaze.playwright.generated.GeneratedSetExtraHTTPHeadersTool
import xyz.block.trailblaze.toolcalls.TrailblazeToolExecutionContext
import java.nio.file.Paths

suspend fun main(args: Array<String>) {
    val (url, arguments, chromium) = args
    val tool = Json.decodeFromString(GeneratedSetExtraHTTPHeadersTool.serializer(), arguments)
    Playwright.create().use { playwright ->
        val options = BrowserType.LaunchOptions()
            .setHeadless(true)
            .setExecutablePath(Paths.get(chromium))
            .setArgs(listOf("--no-sandbox"))
        val browser = playwright.chromium().launch(options)
        val page = browser.newPage()
        val result = tool.executeWithPlaywright(page, TrailblazeToolExecutionContext())
        println("result: $result")
        page.navigate(url)
        browser.close()
        // The same shim on a closed page: Trailblaze's error result, not an exception.
        println("closed: ${tool.executeWithPlaywright(page, TrailblazeToolExecutionContext())}")
    }
}
