// Stand-in for Trailblaze's trailblaze-common/src/jvmAndAndroid/kotlin/xyz/block/trailblaze/toolcalls/TrailblazeToolExecutionContext.kt
// at block/trailblaze@a022ca69b7fecd0ba7659f2c000fb459213c87d6
// The real context's constructor takes a device agent, a logger, agent memory, device info and a
// session provider (Maestro, Android, network types); the tools this harness runs (Graduation.kt)
// never read it, so only the screen state that PlaywrightExecutableTool's companion reads is kept. Every code line below is a
// line of that file.
package xyz.block.trailblaze.toolcalls

import xyz.block.trailblaze.api.ScreenState

class TrailblazeToolExecutionContext(
  screenState: ScreenState?,
) {
  var screenState: ScreenState? = screenState
}
