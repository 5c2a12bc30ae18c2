// The test's stand-in for the Trailblaze library, which is not published: only the symbols the
// generated Kotlin shims use (their default names), declared as minimally as will compile. It is
// never shipped; scripts/kotlin-check.sh compiles it beside the shims.

package xyz.block.trailblaze.toolcalls

@Target(AnnotationTarget.CLASS)
annotation class TrailblazeToolClass(
    val name: String,
    val surfaceToLlm: Boolean = true,
    val isRecordable: Boolean = true,
)
