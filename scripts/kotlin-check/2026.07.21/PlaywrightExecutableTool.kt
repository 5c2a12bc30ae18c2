// Stand-in for Trailblaze's trailblaze-playwright/src/main/java/xyz/block/trailblaze/playwright/tools/PlaywrightExecutableTool.kt
// at block/trailblaze@a022ca69b7fecd0ba7659f2c000fb459213c87d6 (Trailblaze is not published). Every declaration below is copied
// from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout. Members with a
// default body that the generated shims neither call nor override are left out.

package xyz.block.trailblaze.playwright.tools

import com.microsoft.playwright.Page
import xyz.block.trailblaze.toolcalls.ExecutableTrailblazeTool
import xyz.block.trailblaze.toolcalls.TrailblazeToolExecutionContext
import xyz.block.trailblaze.toolcalls.TrailblazeToolResult

interface PlaywrightExecutableTool : ExecutableTrailblazeTool {

  suspend fun executeWithPlaywright(
    page: Page,
    context: TrailblazeToolExecutionContext,
  ): TrailblazeToolResult

  override suspend fun execute(
    toolExecutionContext: TrailblazeToolExecutionContext,
  ): TrailblazeToolResult {
    error("PlaywrightExecutableTool must be executed via PlaywrightTrailblazeAgent")
  }
}
