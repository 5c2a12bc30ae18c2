// Runs Trailblaze's own run-time code (compiled from a block/trailblaze checkout by build.py) over
// the generated Playwright tools; see README.md. Every result is one line on stdout starting with
// `RTCHECK ` followed by a JSON object (Trailblaze's own Console.log lines go to stdout too).
//
//   RuntimeCheck --classes DIR --resources DIR [--yaml-only]
//
// --classes: the folder the generated shims were compiled into (the tools are found by listing it);
// --resources: the generated resources root (holding trails/config/trailmaps/...).
@file:OptIn(kotlinx.serialization.InternalSerializationApi::class, kotlinx.serialization.ExperimentalSerializationApi::class)

package runtimecheck

import ai.koog.agents.core.tools.ToolDescriptor
import ai.koog.agents.core.tools.ToolParameterDescriptor
import ai.koog.agents.core.tools.ToolParameterType
import kotlinx.serialization.KSerializer
import kotlinx.serialization.SerialName
import kotlinx.serialization.descriptors.SerialDescriptor
import kotlinx.serialization.descriptors.SerialKind
import kotlinx.serialization.descriptors.StructureKind
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.add
import kotlinx.serialization.json.buildJsonArray
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import kotlinx.serialization.json.putJsonArray
import kotlinx.serialization.serializer
import xyz.block.trailblaze.config.ToolYamlLoader
import xyz.block.trailblaze.devices.TrailblazeDriverType
import xyz.block.trailblaze.llm.config.bundledConfigResourceSource
import xyz.block.trailblaze.logs.client.TrailblazeJsonInstance
import xyz.block.trailblaze.logs.client.TrailblazeSerializationInitializer
import xyz.block.trailblaze.toolcalls.ToolName
import xyz.block.trailblaze.toolcalls.TrailblazeTool
import xyz.block.trailblaze.toolcalls.TrailblazeToolClass
import xyz.block.trailblaze.toolcalls.TrailblazeToolSetCatalog
import xyz.block.trailblaze.toolcalls.buildToolDescriptorIgnoringSurface
import xyz.block.trailblaze.toolcalls.toKoogToolDescriptor
import xyz.block.trailblaze.toolcalls.toScriptedToolDescriptor
import java.io.File
import kotlin.reflect.KClass
import kotlin.reflect.KType
import kotlin.reflect.full.findAnnotation
import kotlin.reflect.full.memberProperties
import kotlin.reflect.full.primaryConstructor

const val GENERATED_PACKAGE = "xyz.block.trailblaze.playwright.generated"

fun emit(obj: JsonObject) {
  println("RTCHECK $obj")
  System.out.flush()
}

fun Throwable.short(): String = "${this::class.simpleName}: ${message ?: ""}".trim().take(600)

/** One step from a parameter into its value: a property of an object, or the item of a list. */
sealed interface Step
data class Prop(val name: String) : Step
object Item : Step

fun render(type: ToolParameterType): String = when (type) {
  is ToolParameterType.Enum -> "Enum(${type.entries.size})"
  is ToolParameterType.List -> "List<${render(type.itemsType)}>"
  is ToolParameterType.Object -> "Object{" + type.properties.joinToString(",") { "${it.name}:${render(it.type)}" } + "}"
  is ToolParameterType.AnyOf -> "AnyOf"
  else -> type.name
}

/** Every Enum in [type] (nested in objects and lists too), with the steps that reach it. */
fun enumsIn(type: ToolParameterType, path: List<Step>, out: MutableList<Pair<List<Step>, ToolParameterType.Enum>>) {
  when (type) {
    is ToolParameterType.Enum -> out += path to type
    is ToolParameterType.List -> enumsIn(type.itemsType, path + Item, out)
    is ToolParameterType.Object -> type.properties.forEach { enumsIn(it.type, path + Prop(it.name), out) }
    else -> {}
  }
}

/** The serial descriptor one [step] below [sd] (through nullable wrappers), or null. */
fun childDescriptor(sd: SerialDescriptor?, step: Step): SerialDescriptor? {
  sd ?: return null
  return try {
    when (step) {
      is Prop -> sd.getElementIndex(step.name).takeIf { it >= 0 }?.let { sd.getElementDescriptor(it) }
      Item -> if (sd.kind == StructureKind.LIST) sd.getElementDescriptor(0) else null
    }
  } catch (_: Exception) {
    null
  }
}

fun childType(type: KType?, step: Step): KType? {
  type ?: return null
  return when (step) {
    Item -> type.arguments.firstOrNull()?.type
    is Prop -> (type.classifier as? KClass<*>)?.memberProperties?.firstOrNull { it.name == step.name }?.returnType
  }
}

/** A value of [type] that an LLM could send: for an Enum, the serializer's first name when it lists them. */
fun sample(type: ToolParameterType, sd: SerialDescriptor?): JsonElement = when (type) {
  is ToolParameterType.String -> JsonPrimitive("x")
  is ToolParameterType.Integer -> JsonPrimitive(1)
  is ToolParameterType.Float -> JsonPrimitive(1.0)
  is ToolParameterType.Boolean -> JsonPrimitive(false)
  is ToolParameterType.Enum ->
    JsonPrimitive(if (sd != null && sd.kind == SerialKind.ENUM) sd.getElementName(0) else type.entries.first())
  is ToolParameterType.List -> JsonArray(emptyList())
  is ToolParameterType.Object -> JsonObject(
    type.properties.associate { it.name to sample(it.type, childDescriptor(sd, Prop(it.name))) },
  )
  else -> JsonNull
}

/** [type] holding [value] at [path], every other property of an object on the way filled with a sample. */
fun place(type: ToolParameterType, sd: SerialDescriptor?, path: List<Step>, value: String): JsonElement {
  if (path.isEmpty()) return JsonPrimitive(value)
  val step = path.first()
  return when {
    step == Item && type is ToolParameterType.List ->
      JsonArray(listOf(place(type.itemsType, childDescriptor(sd, Item), path.drop(1), value)))
    step is Prop && type is ToolParameterType.Object -> JsonObject(
      type.properties.associate {
        val childSd = childDescriptor(sd, Prop(it.name))
        it.name to if (it.name == step.name) place(it.type, childSd, path.drop(1), value) else sample(it.type, childSd)
      },
    )
    else -> JsonPrimitive(value)
  }
}

class Counter {
  var ok = 0
  var failed = 0
  var firstFailure: String? = null
  fun record(error: String?) {
    if (error == null) ok++ else {
      failed++
      if (firstFailure == null) firstFailure = error
    }
  }
  fun json() = buildJsonObject {
    put("ok", ok)
    put("failed", failed)
    put("first_failure", firstFailure)
  }
}

@Suppress("UNCHECKED_CAST")
fun checkTool(kClass: KClass<out TrailblazeTool>) {
  val annotation = kClass.findAnnotation<TrailblazeToolClass>()!!
  val serializer = kClass.serializer() as KSerializer<Any>
  val classSd = serializer.descriptor
  var descriptor: ToolDescriptor? = null
  val descriptorResult = try {
    descriptor = kClass.buildToolDescriptorIgnoringSurface()
    "ok"
  } catch (e: Throwable) {
    e.short()
  }
  val scripted = try { kClass.toScriptedToolDescriptor() != null } catch (e: Throwable) { false }
  val llm = try { kClass.toKoogToolDescriptor() != null } catch (e: Throwable) { false }

  val required = descriptor?.requiredParameters.orEmpty()
  val params: List<Pair<ToolParameterDescriptor, Boolean>> =
    required.map { it to true } + descriptor?.optionalParameters.orEmpty().map { it to false }
  val paramTypes = kClass.primaryConstructor?.parameters.orEmpty().associate { it.name to it.type }

  // Trailblaze's own decoding of a class-backed tool call (TrailblazeToolRepo.toolCallToTrailblazeTool,
  // step 2): TrailblazeJsonInstance.decodeFromString(toolClass.serializer(), toolCall.args).
  fun decode(json: String): Any = TrailblazeJsonInstance.decodeFromString(serializer, json)

  val entryNames = Counter()
  val wireStrings = Counter()
  val roundTrip = Counter()
  val enumDetails = buildJsonArray {
    val found = mutableListOf<Pair<List<Step>, ToolParameterType.Enum>>()
    params.forEach { (p, _) -> enumsIn(p.type, listOf(Prop(p.name)), found) }
    for ((path, enumType) in found) {
      val top = (path.first() as Prop).name
      var sd: SerialDescriptor? = classSd
      var kType: KType? = null
      path.forEachIndexed { i, step ->
        sd = childDescriptor(sd, step)
        kType = if (i == 0) paramTypes[top] else childType(kType, step)
      }
      val enumSd = sd
      val enumClass = (kType?.classifier as? KClass<*>)?.java
      val (wires, wireSource) = when {
        enumSd != null && enumSd.kind == SerialKind.ENUM ->
          (0 until enumSd.elementsCount).map { enumSd.getElementName(it) } to "serial descriptor element names"
        enumClass != null && enumClass.isEnum ->
          enumClass.enumConstants.map { c ->
            val name = (c as Enum<*>).name
            enumClass.getField(name).getAnnotation(SerialName::class.java)?.value ?: name
          } to "@SerialName of the entries, else the entry name (serializer ${enumSd?.kind} lists none)"
        else -> enumType.entries.toList() to "descriptor (no enum class found)"
      }
      fun argsWith(value: String): String = buildJsonObject {
        for ((p, isRequired) in params) {
          val childSd = childDescriptor(classSd, Prop(p.name))
          when {
            p.name == top -> put(p.name, place(p.type, childSd, path.drop(1), value))
            isRequired -> put(p.name, sample(p.type, childSd))
          }
        }
      }.toString()
      fun attempt(value: String, counter: Counter, doRoundTrip: Boolean): String? {
        val json = argsWith(value)
        val error = try {
          val decoded = decode(json)
          if (doRoundTrip) {
            roundTrip.record(
              try {
                val again = decode(TrailblazeJsonInstance.encodeToString(serializer, decoded))
                if (again == decoded) null else "re-decoded object differs: $again vs $decoded"
              } catch (e: Throwable) {
                e.short()
              },
            )
          }
          null
        } catch (e: Throwable) {
          "$json: ${e.short()}"
        }
        counter.record(error)
        return error
      }
      val entryFailures = enumType.entries.mapNotNull { v -> attempt(v, entryNames, true)?.let { v } }
      val wireFailures = wires.mapNotNull { w -> attempt(w, wireStrings, false)?.let { w } }
      add(
        buildJsonObject {
          put("path", path.joinToString(".") { if (it is Prop) it.name else "[]" })
          putJsonArray("descriptor_values") { enumType.entries.forEach { add(it) } }
          putJsonArray("wire_strings") { wires.forEach { add(it) } }
          put("wire_source", wireSource)
          putJsonArray("descriptor_values_failed") { entryFailures.forEach { add(it) } }
          putJsonArray("wire_strings_failed") { wireFailures.forEach { add(it) } }
        },
      )
    }
  }
  emit(
    buildJsonObject {
      put("kind", "tool")
      put("tool", annotation.name)
      put("class", kClass.qualifiedName)
      put("surface_to_llm", annotation.surfaceToLlm)
      put("descriptor", descriptorResult)
      put("scripted", scripted)
      put("llm", llm)
      putJsonArray("parameters") {
        params.forEach { (p, isRequired) ->
          add(
            buildJsonObject {
              put("name", p.name)
              put("type", render(p.type))
              put("required", isRequired)
            },
          )
        }
      }
      put("enums", enumDetails)
      put("enum_descriptor_values", entryNames.json())
      put("enum_wire_strings", wireStrings.json())
      put("enum_round_trip", roundTrip.json())
    },
  )
}

fun yamlChecks(resources: File, generated: Map<String, KClass<out TrailblazeTool>>) {
  // 1. Each generated descriptor through ToolYamlLoader's own parsing (TrailblazeConfigYaml +
  //    ToolYamlConfig.validate() + Class.forName), one file at a time.
  val trailmaps = File(resources, "trails/config/trailmaps")
  val files = trailmaps.walkTopDown().filter { it.isFile && it.name.endsWith(".tool.yaml") }.sortedBy { it.path }.toList()
  val perFile = Counter()
  val resolvedByFile = mutableSetOf<String>()
  for (file in files) {
    val key = file.relativeTo(trailmaps).path.removeSuffix(".yaml")
    val error = try {
      val loaded = ToolYamlLoader.loadFromYamlContents(mapOf(key to file.readText()))
      when {
        loaded.isEmpty() -> "nothing loaded (see the Warning above)"
        else -> {
          val (name, kClass) = loaded.entries.single()
          resolvedByFile += name.toolName
          if (generated[name.toolName] == kClass) null else "$key -> ${name.toolName} = ${kClass.qualifiedName}: not a generated tool class"
        }
      }
    } catch (e: Throwable) {
      "$key: ${e.short()}"
    }
    perFile.record(error)
  }
  // 2. Classpath discovery, as Trailblaze runs it (bundledConfigResourceSource = the classpath).
  val discovered = try { ToolYamlLoader.discoverAndLoadAll(bundledConfigResourceSource()) } catch (e: Throwable) { emptyMap() }
  val discoveredGenerated = discovered.count { (n, k) -> generated[n.toolName] == k }
  val serializationTools = try { TrailblazeSerializationInitializer.buildAllTools() } catch (e: Throwable) { emptyMap() }
  emit(
    buildJsonObject {
      put("kind", "yaml")
      put("files", files.size)
      put("loaded", perFile.json())
      put("classpath_discovered", discovered.size)
      put("classpath_discovered_generated", discoveredGenerated)
      put("serialization_initializer_generated", serializationTools.count { (n, k) -> generated[n.toolName] == k })
      putJsonArray("generated_not_discovered") {
        generated.keys.filter { n -> discovered[ToolName(n)] != generated[n] }.sorted().forEach { add(it) }
      }
    },
  )
  // 3. The toolset catalog and resolveForDriver for the two Playwright drivers.
  val catalogResult = try {
    val entries = TrailblazeToolSetCatalog.defaultEntries()
    val web = entries.firstOrNull { it.id == "web_framework" }
    buildJsonObject {
      put("kind", "toolset")
      put("catalog_entries", entries.size)
      put("web_framework_found", web != null)
      if (web != null) {
        put("web_framework_tool_names", web.toolNames.size)
        put("web_framework_tool_classes", web.toolClasses.size)
        put("web_framework_generated_classes", web.toolClasses.count { it in generated.values })
        put("web_framework_always_enabled", web.alwaysEnabled)
        putJsonArray("web_framework_drivers") { web.compatibleDriverTypes.map { it.yamlKey }.sorted().forEach { add(it) } }
        putJsonArray("web_framework_unresolved") {
          web.toolNames.filter { n -> generated[n] == null || generated[n] !in web.toolClasses }.sorted().forEach { add(it) }
        }
      }
      for (driver in listOf(TrailblazeDriverType.PLAYWRIGHT_NATIVE, TrailblazeDriverType.PLAYWRIGHT_ELECTRON)) {
        val resolved = TrailblazeToolSetCatalog.resolveForDriver(driver, emptyList(), entries)
        put(
          "resolveForDriver_${driver.yamlKey}",
          buildJsonObject {
            put("tool_classes", resolved.toolClasses.size)
            put("generated", resolved.toolClasses.count { it in generated.values })
            put("yaml_tool_names", resolved.yamlToolNames.size)
            put("scripted_tool_names", resolved.scriptedToolNames.size)
          },
        )
      }
    }
  } catch (e: Throwable) {
    buildJsonObject {
      put("kind", "toolset")
      put("error", e.short())
    }
  }
  emit(catalogResult)
}

@Suppress("UNCHECKED_CAST")
fun main(args: Array<String>) {
  fun arg(name: String): String? = args.indexOf(name).takeIf { it >= 0 }?.let { args[it + 1] }
  val classes = File(arg("--classes") ?: error("--classes DIR"))
  val resources = File(arg("--resources") ?: error("--resources DIR"))
  val yamlOnly = "--yaml-only" in args
  val folder = File(classes, GENERATED_PACKAGE.replace('.', '/'))
  val toolClasses = (folder.listFiles() ?: emptyArray())
    .filter { it.name.endsWith(".class") && '$' !in it.name }
    .map { Class.forName("$GENERATED_PACKAGE.${it.name.removeSuffix(".class")}").kotlin }
    .filter { it.findAnnotation<TrailblazeToolClass>() != null }
    .sortedBy { it.qualifiedName }
    .map { it as KClass<out TrailblazeTool> }
  val generated = toolClasses.associateBy { it.findAnnotation<TrailblazeToolClass>()!!.name }
  emit(
    buildJsonObject {
      put("kind", "start")
      put("tool_classes", toolClasses.size)
      put("yaml_only", yamlOnly)
    },
  )
  if (!yamlOnly) {
    for (kClass in toolClasses) {
      try {
        checkTool(kClass)
      } catch (e: Throwable) {
        emit(
          buildJsonObject {
            put("kind", "tool")
            put("tool", generated.entries.first { it.value == kClass }.key)
            put("class", kClass.qualifiedName)
            put("error", e.short())
          },
        )
      }
    }
  }
  yamlChecks(resources, generated)
  emit(buildJsonObject { put("kind", "end") })
}
