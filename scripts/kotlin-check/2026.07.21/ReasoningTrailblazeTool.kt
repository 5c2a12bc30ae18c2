// Stand-in for Trailblaze's trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze/toolcalls/ReasoningTrailblazeTool.kt
// at block/trailblaze@a022ca69b7fecd0ba7659f2c000fb459213c87d6 (Trailblaze is not published). Every declaration below is copied
// from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout. Members with a
// default body that the generated shims neither call nor override are left out.

package xyz.block.trailblaze.toolcalls

interface ReasoningTrailblazeTool : TrailblazeTool {
  val reasoning: String?
}
