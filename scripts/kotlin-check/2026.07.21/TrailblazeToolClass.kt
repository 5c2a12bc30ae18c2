// Stand-in for Trailblaze's trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze/toolcalls/TrailblazeToolClass.kt
// at block/trailblaze@a022ca69b7fecd0ba7659f2c000fb459213c87d6 (Trailblaze is not published). Every declaration below is copied
// from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout. Members with a
// default body that the generated shims neither call nor override are left out.

package xyz.block.trailblaze.toolcalls

import kotlin.reflect.KClass

@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
annotation class TrailblazeToolClass(
  val name: String,
  val surfaceToLlm: Boolean = true,
  val isRecordable: Boolean = true,
  val requiresHost: Boolean = false,
  val isVerification: Boolean = false,
  val trailheadTo: String = "",
  val resultType: KClass<*> = Unit::class,
)
