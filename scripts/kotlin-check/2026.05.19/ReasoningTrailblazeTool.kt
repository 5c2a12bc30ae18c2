// Stand-in for Trailblaze's trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze/toolcalls/ReasoningTrailblazeTool.kt
// at block/trailblaze@72d146a153e191515a2c94bccf6d1942c65837be (Trailblaze is not published). Every declaration below is copied
// from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout. Members with a
// default body that the generated shims neither call nor override are left out.

package xyz.block.trailblaze.toolcalls

interface ReasoningTrailblazeTool : TrailblazeTool {
  val reasoning: String?
}
