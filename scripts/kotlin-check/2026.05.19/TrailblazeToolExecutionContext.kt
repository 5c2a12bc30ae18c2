// Stand-in for Trailblaze's trailblaze-common/src/jvmAndAndroid/kotlin/xyz/block/trailblaze/toolcalls/TrailblazeToolExecutionContext.kt
// at block/trailblaze@72d146a153e191515a2c94bccf6d1942c65837be (Trailblaze is not published). Every declaration below is copied
// from that file; scripts/trailblaze_check.py --against DIR holds it to a checkout. Members with a
// default body that the generated shims neither call nor override are left out.

// Its constructor (session, logger, memory, device: Trailblaze types of their own) is not mirrored:
// the shims only pass the context along, and a test builds this one without arguments.
package xyz.block.trailblaze.toolcalls

class TrailblazeToolExecutionContext
