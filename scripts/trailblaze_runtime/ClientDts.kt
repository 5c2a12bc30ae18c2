// Writes the `trailblaze-client.d.ts` Trailblaze itself writes for a trailmap holding the generated
// tools: the descriptors from `toScriptedToolDescriptor()` (what Trailblaze's daemon uses), through
// trailblaze-trailmap-bundler's `WorkspaceClientDtsGenerator.generateForTrailmap`, for the tools the
// generated toolset lists. Prints one line `DTSCHECK {json}`: the file written, its entries, the
// tools Trailblaze could not describe.
//
//   ClientDts --classes DIR --toolset FILE --trailmap DIR

package clientdts

import java.io.File
import kotlin.reflect.KClass
import kotlin.reflect.full.findAnnotation
import kotlinx.serialization.json.add
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonArray
import xyz.block.trailblaze.bundle.WorkspaceClientDtsGenerator
import xyz.block.trailblaze.toolcalls.TrailblazeTool
import xyz.block.trailblaze.toolcalls.TrailblazeToolClass
import xyz.block.trailblaze.toolcalls.toScriptedToolDescriptor

@Suppress("UNCHECKED_CAST")
fun clientDts(args: Array<String>) {
  fun arg(name: String): String = args[args.indexOf(name) + 1]
  val folder = File(arg("--classes"), "xyz/block/trailblaze/playwright/generated")
  // The toolset's `tools:` list (`- web_x` lines): the tools a trailmap with it registers.
  val listed = File(arg("--toolset")).readLines()
    .map { it.trim() }
    .filter { it.startsWith("- ") }
    .map { it.removePrefix("- ").trim() }
    .toSet()
  val classes = (folder.listFiles() ?: emptyArray())
    .filter { it.name.endsWith(".class") && '$' !in it.name }
    .map { Class.forName("xyz.block.trailblaze.playwright.generated.${it.name.removeSuffix(".class")}").kotlin }
    .filter { it.findAnnotation<TrailblazeToolClass>()?.name in listed }
    .sortedBy { it.findAnnotation<TrailblazeToolClass>()!!.name }
    .map { it as KClass<out TrailblazeTool> }
  val skipped = mutableListOf<String>()
  val descriptors = classes.mapNotNull { kClass ->
    kClass.toScriptedToolDescriptor().also {
      if (it == null) skipped += kClass.findAnnotation<TrailblazeToolClass>()!!.name
    }
  }
  val trailmap = File(arg("--trailmap")).absoluteFile.also { it.mkdirs() }
  val written = WorkspaceClientDtsGenerator().generateForTrailmap(trailmap.toPath(), descriptors, emptyList())
  println(
    "DTSCHECK " + buildJsonObject {
      put("file", written.toString())
      put("entries", descriptors.size)
      putJsonArray("skipped") { skipped.forEach { add(it) } }
    },
  )
}

fun main(args: Array<String>) = clientDts(args)
