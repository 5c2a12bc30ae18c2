// The test's stand-in for the Trailblaze library (see TrailblazeStub.kt): the interface every
// generated shim implements.

package xyz.block.trailblaze.playwright

interface PlaywrightExecutableTool {
    fun execute(page: com.microsoft.playwright.Page): Any?
}
