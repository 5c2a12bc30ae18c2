// Stand-in for Trailblaze's trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze/toolcalls/TrailblazeToolResult.kt
// at block/trailblaze@72d146a153e191515a2c94bccf6d1942c65837be (Trailblaze is not published). Every declaration below is copied
// from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout. Members with a
// default body that the generated shims neither call nor override are left out.

package xyz.block.trailblaze.toolcalls

import kotlinx.serialization.Contextual
import kotlinx.serialization.Serializable

@Serializable
sealed interface TrailblazeToolResult {

  @Serializable
  data class Success(val message: String? = null) : TrailblazeToolResult

  @Serializable
  sealed interface Error : TrailblazeToolResult {
    val errorMessage: String

    @Serializable
    data class ExceptionThrown(
      override val errorMessage: String,
      @Contextual val command: TrailblazeTool? = null,
      val stackTrace: String? = null,
    ) : Error
  }
}
