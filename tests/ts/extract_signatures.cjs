// Prints, as JSON on stdout, what tests/test_ts_oracle.py compares:
//   playwright: for each requested interface of playwright-core's types.d.ts, each member with
//               its kind ("method" or "property") and, for a method, every overload's parameters
//               (name, optional, rest, type text; for a parameter named `options`, the properties
//               of its type with their optionality);
//   tools:      for each member of the generated `WebTools` interface, the properties of `args`.
// Everything is read through the TypeScript checker, so overloads, merged declarations, generics
// and options types declared elsewhere (`options?: PageScreenshotOptions`) all resolve as tsc sees
// them.
//
// usage: node extract_signatures.cjs <typescript dir> <types.d.ts> <web-tools.d.ts> <Interface>...
"use strict";

const [typescriptDir, typesDts, webToolsDts, ...interfaces] = process.argv.slice(2);
const ts = require(typescriptDir);

const program = ts.createProgram([typesDts, webToolsDts], {
  noEmit: true,
  strict: true,
  types: [],
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
});
const checker = program.getTypeChecker();
const FORMAT = ts.TypeFormatFlags.NoTruncation;

function exportedInterface(fileName, name) {
  const source = program.getSourceFile(fileName);
  if (!source) throw new Error(`cannot read ${fileName}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Interface)) {
    throw new Error(`${fileName} exports no interface ${name}`);
  }
  return checker.getDeclaredTypeOfSymbol(symbol);
}

function isOptionalProperty(symbol) {
  return (symbol.flags & ts.SymbolFlags.Optional) !== 0;
}

// Properties of an object or intersection type (`PageWaitForSelectorOptions & {...}`), or of each
// such member of a union (`null | {...}`), by name; a property is optional unless every member
// declares it required.
function properties(type) {
  const found = new Map();
  const objectLike = ts.TypeFlags.Object | ts.TypeFlags.Intersection;
  const members = (type.isUnion() ? type.types : [type]).filter((m) => m.flags & objectLike);
  for (const member of members) {
    for (const prop of checker.getPropertiesOfType(member)) {
      const decl = prop.valueDeclaration || (prop.declarations || [])[0];
      const text = checker.typeToString(checker.getTypeOfSymbol(prop), decl, FORMAT);
      const optional = isOptionalProperty(prop) || members.some((m) => !m.getProperty(prop.name));
      const seen = found.get(prop.name);
      found.set(prop.name, { name: prop.name, optional: seen ? seen.optional || optional : optional, type: text });
    }
  }
  return [...found.values()];
}

function parameter(symbol) {
  const decl = symbol.valueDeclaration;
  const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
  const result = {
    name: symbol.name,
    optional: Boolean(decl.questionToken || decl.initializer),
    rest: Boolean(decl.dotDotDotToken),
    type: checker.typeToString(type, decl, FORMAT),
  };
  if (symbol.name === "options") {
    result.options = properties(checker.getNonNullableType(type));
    if (result.options.length > 0) result.type = "{...}";
  }
  return result;
}

function member(symbol) {
  const decl = symbol.valueDeclaration || symbol.declarations[0];
  const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
  const signatures = type.getCallSignatures();
  if (symbol.flags & ts.SymbolFlags.Method || signatures.length > 0) {
    return { kind: "method", overloads: signatures.map((s) => s.getParameters().map(parameter)) };
  }
  return { kind: "property", type: checker.typeToString(type, decl, FORMAT), overloads: [] };
}

const playwright = {};
for (const name of interfaces) {
  const members = {};
  for (const symbol of checker.getPropertiesOfType(exportedInterface(typesDts, name))) {
    members[symbol.name] = member(symbol);
  }
  playwright[name] = members;
}

const tools = {};
for (const tool of checker.getPropertiesOfType(exportedInterface(webToolsDts, "WebTools"))) {
  const entry = checker.getTypeOfSymbolAtLocation(tool, tool.valueDeclaration);
  const args = entry.getProperty("args");
  if (!args) throw new Error(`WebTools.${tool.name} has no args`);
  const argsType = checker.getTypeOfSymbolAtLocation(args, args.valueDeclaration);
  tools[tool.name] = checker
    .getPropertiesOfType(argsType)
    .map((p) => ({ name: p.name, optional: isOptionalProperty(p) }));
}

process.stdout.write(JSON.stringify({ playwright, tools }, null, 1));
