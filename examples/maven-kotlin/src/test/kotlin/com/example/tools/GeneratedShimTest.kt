// The example's proof that the build step works end to end: the shim the generator wrote in
// generate-sources was compiled by this build, and runs as Trailblaze runs a tool call (arguments
// decoded from JSON into the shim's class, then executeWithPlaywright on a real page in headless
// Chromium); a local HTTP server sees the header the shim set. And the resources root is on the
// classpath: the descriptors and the toolset are where Trailblaze's loader looks.
package com.example.tools

import com.microsoft.playwright.BrowserType
import com.microsoft.playwright.Playwright
import com.sun.net.httpserver.HttpServer
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.Json
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import xyz.block.trailblaze.playwright.generated.GeneratedSetExtraHTTPHeadersTool
import xyz.block.trailblaze.toolcalls.TrailblazeToolExecutionContext
import xyz.block.trailblaze.toolcalls.TrailblazeToolResult
import java.net.InetSocketAddress
import java.nio.file.Paths
import java.util.concurrent.ConcurrentLinkedQueue

class GeneratedShimTest {
    @Test
    fun `the generated setExtraHTTPHeaders shim sets a header the server sees`() {
        val seen = ConcurrentLinkedQueue<String>()
        val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
        server.createContext("/") { exchange ->
            seen.add(exchange.requestHeaders.getFirst("X-Example-Build") ?: "")
            val body = "<title>ok</title>".toByteArray()
            exchange.sendResponseHeaders(200, body.size.toLong())
            exchange.responseBody.use { it.write(body) }
        }
        server.start()
        try {
            val tool = Json.decodeFromString(
                GeneratedSetExtraHTTPHeadersTool.serializer(),
                """{"headers": {"X-Example-Build": "maven"}}""",
            )
            Playwright.create().use { playwright ->
                val options = BrowserType.LaunchOptions()
                    .setHeadless(true)
                    .setExecutablePath(Paths.get(System.getProperty("chromium.executable")))
                    .setArgs(listOf("--no-sandbox"))
                val browser = playwright.chromium().launch(options)
                try {
                    val page = browser.newPage()
                    val result = runBlocking {
                        tool.executeWithPlaywright(page, TrailblazeToolExecutionContext())
                    }
                    assertTrue(result is TrailblazeToolResult.Success, "result: $result")
                    // navigate returns once the response has arrived, so the server has seen it.
                    page.navigate("http://127.0.0.1:${server.address.port}/")
                } finally {
                    browser.close()
                }
            }
        } finally {
            server.stop(0)
        }
        assertEquals(listOf("maven"), seen.filter { it.isNotEmpty() }.distinct())
    }

    @Test
    fun `the descriptors and the toolset are on the classpath`() {
        val loader = javaClass.classLoader
        val descriptor = loader.getResource("trails/config/trailmaps/web/tools/web_setExtraHTTPHeaders.tool.yaml")
        assertNotNull(descriptor, "the resources root (playwright-tools/trailblaze/resources) is not on the classpath")
        val toolset = loader.getResource("trails/config/trailmaps/web/toolsets/web_framework.yaml")
        assertNotNull(toolset)
        val listed = toolset!!.readText()
        assertTrue("web_setExtraHTTPHeaders" in listed && "web_title" in listed, listed)
    }
}
