// Stand-in for Trailblaze's trailblaze-common/src/jvmMain/kotlin/xyz/block/trailblaze/setofmark/SetOfMarkAnnotator.kt
// at block/trailblaze@a022ca69b7fecd0ba7659f2c000fb459213c87d6
// The real annotator draws through Maestro's DeviceInfo (maestro-client, not on Maven Central); the
// `deviceInfo` parameter and the drawing are left out, and the screenshot comes back as it is (the
// real one's path when it draws nothing). Every code line below is a line of that file.
package xyz.block.trailblaze.setofmark

import xyz.block.trailblaze.api.AnnotationElement
import xyz.block.trailblaze.devices.TrailblazeDevicePlatform

object SetOfMarkAnnotator {

  fun annotate(
    screenshotBytes: ByteArray?,
    screenWidth: Int,
    screenHeight: Int,
    platform: TrailblazeDevicePlatform,
    annotationElements: List<AnnotationElement>? = null,
  ): ByteArray? {
    screenshotBytes ?: return null
    if (screenshotBytes.isEmpty()) return screenshotBytes

    return try {
      screenshotBytes
    } catch (_: Exception) {
      screenshotBytes
    }
  }
}
